import { nestsDeeperThan } from '../../../../../src/interfaces/http/body/json-nesting';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nesting depth read from the raw bytes', () => {
  it('allows exactly the maximum and refuses one more, for arrays and objects alike', () => {
    expect(nestsDeeperThan(bytes(nested(16)), 16)).toBe(false);
    expect(nestsDeeperThan(bytes(nested(17)), 16)).toBe(true);
    const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    expect(nestsDeeperThan(bytes(objects(16)), 16)).toBe(false);
    expect(nestsDeeperThan(bytes(objects(17)), 16)).toBe(true);
  });

  it('counts siblings once: depth, not the number of brackets', () => {
    expect(nestsDeeperThan(bytes(JSON.stringify(Array.from({ length: 1000 }, () => [[1]]))), 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(bytes(JSON.stringify({ text: '[[[[[[[[[[' })), 2)).toBe(false);
    expect(nestsDeeperThan(bytes(JSON.stringify({ text: 'say \"[[[[\" \\\\', b: [[[]]] })), 3)).toBe(true);
    expect(nestsDeeperThan(bytes(JSON.stringify({ text: 'say \"[[[[\" \\\\', b: [[]] })), 3)).toBe(false);
  });

  it('scans 5,000 levels without recursion', () => {
    expect(nestsDeeperThan(bytes(nested(5000)), 16)).toBe(true);
  });
});
