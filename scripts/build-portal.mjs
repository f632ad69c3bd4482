// The portal page's assets (docs/portal.md): src/interfaces/portal-page bundled by esbuild into
// dist/portal (portal.js, portal.css, index.html), served by the API at /portal. Run by
// `npm run build` and by the tests' global setup. Prints the gzipped sizes it wrote.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(ROOT, 'src', 'interfaces', 'portal-page');
const OUT = join(ROOT, 'dist', 'portal');

mkdirSync(OUT, { recursive: true });
await build({
  entryPoints: [join(SOURCE, 'main.tsx')],
  outfile: join(OUT, 'portal.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(SOURCE, 'index.html'), join(OUT, 'index.html'));
const sizes = ['portal.js', 'portal.css', 'index.html'].map((name) => [name, gzipSync(readFileSync(join(OUT, name))).length]);
const total = sizes.reduce((sum, [, size]) => sum + size, 0);
if (process.argv.includes('--sizes')) console.log(`portal assets, gzipped: ${sizes.map(([n, s]) => `${n} ${(s / 1024).toFixed(1)} KB`).join(', ')}; ${(total / 1024).toFixed(1)} KB in all`);
