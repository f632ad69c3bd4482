import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder, REPOSITORY_ROOT as ROOT } from '../../support/repository-files';

// Issue 43, item 5: the docs that describe the code as it is name only files that exist. A file
// may be named by its path from the repository's root or by its last folders (as
// docs/architecture.md names them in a room's paragraph: `outbox/relay-wake.ts`). The rules in
// force (docs/decisions.md) and the current analysis (docs/performance-analysis.md) are held to
// it too: their history is in git, not in names of files that are gone.
const DOCS = ['docs/architecture.md', 'docs/webhooks.md', 'docs/scaling.md', 'docs/decisions.md', 'docs/performance-analysis.md', 'docs/performance.md', 'docs/portal.md', 'README.md', 'bench/README.md'].filter((doc) => existsSync(join(ROOT, doc)));
const PATH = /(?<![\w/.:-])((?:[\w-]+\/)+[\w.-]+\.(?:ts|mjs|cjs|js|sh|json|md))(?![\w/])/g;

/** The paths a document names (code spans and text alike), but URLs, globs and the build's output (dist/). */
export function namedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(PATH)].map((m) => m[1]))].filter((path) => !path.includes('*') && !path.startsWith('dist/'));
}

describe('the docs of the code as it is', () => {
  it('find paths in a text: rooted, relative to src/, in code spans, not in URLs', () => {
    expect(namedPaths('see `src/main.ts`, (interfaces/http/openapi/same-shape.ts) and https://example.com/a/b.md, node_modules/x/*.js or dist/main.js')).toEqual([
      'src/main.ts',
      'interfaces/http/openapi/same-shape.ts',
    ]);
  });

  it.each(DOCS)('%s names only files that exist', (doc) => {
    const files = ['src', 'test', 'bench', 'scripts', 'docs', 'openapi', 'client', 'examples'].flatMap((top) => filesUnder(top));
    const exists = (path: string) => files.some((file) => file === path || file.endsWith(`/${path}`));
    expect(namedPaths(readFileSync(join(ROOT, doc), 'utf8')).filter((path) => !exists(path))).toEqual([]);
  });
});
