import { BoundedMemo } from '../../../../src/infrastructure/memo/bounded-memo';

describe('BoundedMemo', () => {
  it('keeps at most its capacity, dropping the least recently used entry', () => {
    const memo = new BoundedMemo<number>(2);
    memo.set('a', 1);
    memo.set('b', 2);
    expect(memo.get('a')).toBe(1); // 'b' is now the least recent
    memo.set('c', 3);
    expect(memo.size).toBe(2);
    expect(memo.get('b')).toBeUndefined();
    expect([memo.get('a'), memo.get('c')]).toEqual([1, 3]);
  });

  it('forgets a deleted key', () => {
    const memo = new BoundedMemo<number>(2);
    memo.set('a', 1);
    memo.delete('a');
    expect(memo.get('a')).toBeUndefined();
    expect(memo.size).toBe(0);
  });

  it('replaces a value set again without growing', () => {
    const memo = new BoundedMemo<string>(2);
    memo.set('a', 'x');
    memo.set('a', 'y');
    expect(memo.size).toBe(1);
    expect(memo.get('a')).toBe('y');
  });
});
