// The recorded runs of `npm run bench:history` (bench/history.mjs): this build's, and the one of
// the build before history was kept by day, measured back to back on the same data, when kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const read = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/** { current, before } from bench/results/history.json and history-before.json; null when not run. */
export function recordedHistory(root) {
  const current = read(join(root, 'bench', 'results', 'history.json'));
  return current ? { current, before: read(join(root, 'bench', 'results', 'history-before.json')) } : null;
}
