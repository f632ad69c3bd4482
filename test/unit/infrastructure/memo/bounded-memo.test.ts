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

  it('when full, drops the least recent tenth at once and keeps the rest', () => {
    const memo = new BoundedMemo<number>(100);
    for (let i = 0; i < 100; i++) memo.set(`k${i}`, i);
    expect(memo.get('k0')).toBe(0); // now the most recent
    memo.set('new', -1);
    expect(memo.size).toBe(90);
    // k1…k11 were the least recent: gone; k0, k12 on and the new one stay.
    expect([memo.get('k1'), memo.get('k11')]).toEqual([undefined, undefined]);
    expect([memo.get('k0'), memo.get('k12'), memo.get('k99'), memo.get('new')]).toEqual([0, 12, 99, -1]);
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
