import { GroupWriter } from '../../../../src/infrastructure/persistence/connection/group-writer';

// A write that waits until the test lets it finish, so that what is in flight can be seen.
function controlledWrites() {
  const writes: { items: number[]; finish: () => void; fail: (error: Error) => void }[] = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => writes.push({ items, finish: resolve, fail: reject }));
  return { writes, write };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupWriter', () => {
  it('writes what came in one turn together, and groups what comes in while writes are in flight', async () => {
    const { writes, write } = controlledWrites();
    const writer = new GroupWriter<number>(write, { maxInFlight: 1, maxBatch: 100 });
    const first = [writer.add(1), writer.add(2)];
    await turn();
    expect(writes.map((w) => w.items)).toEqual([[1, 2]]);
    const second = [writer.add(3), writer.add(4), writer.add(5)];
    await turn();
    expect(writes).toHaveLength(1); // one in flight at most: 3, 4, 5 wait for it
    writes[0].finish();
    await Promise.all(first);
    await turn();
    expect(writes.map((w) => w.items)).toEqual([[1, 2], [3, 4, 5]]);
    writes[1].finish();
    await Promise.all(second);
  });

  it('fails every item of a failed write, and only those', async () => {
    const { writes, write } = controlledWrites();
    const writer = new GroupWriter<number>(write, { maxInFlight: 2, maxBatch: 2 });
    const results = [1, 2, 3].map((n) => writer.add(n).then(() => 'ok', (error: Error) => error.message));
    await turn();
    expect(writes.map((w) => w.items)).toEqual([[1, 2], [3]]);
    writes[0].fail(new Error('down'));
    writes[1].finish();
    expect(await Promise.all(results)).toEqual(['down', 'down', 'ok']);
  });

  it('keeps to maxBatch and maxInFlight under a burst', async () => {
    const { writes, write } = controlledWrites();
    const writer = new GroupWriter<number>(write, { maxInFlight: 2, maxBatch: 3 });
    const all = Array.from({ length: 10 }, (_, n) => writer.add(n));
    await turn();
    expect(writes.map((w) => w.items)).toEqual([[0, 1, 2], [3, 4, 5]]);
    // Finish the writes in order; each one finished lets the next group go out.
    for (let i = 0; i < writes.length; i++) {
      writes[i].finish();
      await turn();
      await turn();
    }
    await Promise.all(all);
  });

  it("answers each item with its own result from the group's write", async () => {
    const seen: number[][] = [];
    const writer = new GroupWriter<number, string>(async (items) => {
      seen.push(items);
      return items.map((n) => `r${n}`);
    }, { maxInFlight: 1, maxBatch: 10 });
    expect(await Promise.all([writer.add(1), writer.add(2), writer.add(3)])).toEqual(['r1', 'r2', 'r3']);
    expect(seen).toEqual([[1, 2, 3]]);
  });
});
