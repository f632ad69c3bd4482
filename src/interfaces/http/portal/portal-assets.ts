import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The portal page's files as `npm run build` wrote them (scripts/build-portal.mjs): dist/portal,
 * beside the compiled API. Read once, kept in memory (a few tens of KB). Tests build them in
 * their global setup.
 */
const DIST = join(__dirname, '..', '..', '..', '..', 'dist', 'portal');
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
let files: Map<string, Buffer> | null = null;

function loaded(): Map<string, Buffer> {
  if (files !== null) return files;
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`the portal page is not built (${DIST}): npm run build`);
  files = new Map(['index.html', 'portal.js', 'portal.css'].map((name) => [name, readFileSync(join(DIST, name))]));
  return files;
}

export function portalIndex(): Buffer {
  return loaded().get('index.html')!;
}

/** One of the page's assets by file name; null for any other name. */
export function portalAsset(file: string): { type: string; body: Buffer } | null {
  const body = file === 'index.html' ? undefined : loaded().get(file);
  const type = TYPES[file.slice(file.lastIndexOf('.'))];
  return body && type ? { type, body } : null;
}
