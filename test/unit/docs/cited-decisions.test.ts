import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder, REPOSITORY_ROOT as ROOT } from '../../support/repository-files';

// Code, tests and docs cite a rule by its number (`decisions.md 125`); docs/decisions.md keeps
// every number, grouped by area, a replaced rule as a line saying where it went. A citation of a
// number the file does not hold would send the reader nowhere.
const CITATION = /(?<!shared\/spec\/)decisions\.md,? (\d+)/g;

export function citedNumbers(text: string): number[] {
  return [...text.matchAll(CITATION)].map((m) => Number(m[1]));
}

function anchors(): Set<number> {
  const text = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8');
  return new Set([...text.matchAll(/<a id="d(\d+)"><\/a>\*\*\1\.\*\*/g)].map((m) => Number(m[1])));
}

describe('rules cited by number', () => {
  it('finds citations, not the spec\'s own decisions.md', () => {
    expect(citedNumbers('(decisions.md 125; decisions.md, 7) and ../shared/spec/decisions.md 3')).toEqual([125, 7]);
  });

  it('every cited number is an entry of docs/decisions.md', () => {
    const held = anchors();
    expect(held.size).toBeGreaterThan(150);
    const files = ['src', 'test', 'bench', 'scripts', 'docs'].flatMap((top) => filesUnder(top, (name) => /\.(ts|tsx|mjs|cjs|md|sh)$/.test(name))).concat('README.md');
    const dangling = files.flatMap((file) => citedNumbers(readFileSync(join(ROOT, file), 'utf8')).filter((n) => !held.has(n)).map((n) => `${file}: ${n}`));
    expect(dangling).toEqual([]);
  });

  it('would see a number the file does not hold (the check can fail)', () => {
    expect(anchors().has(9999)).toBe(false);
    expect(citedNumbers(['decisions.md', '9999'].join(' '))).toEqual([9999]);
  });
});
