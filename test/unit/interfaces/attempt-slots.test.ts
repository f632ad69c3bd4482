import { AttemptSlots } from '../../../src/interfaces/worker/attempt-slots';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('AttemptSlots', () => {
  it('runs at most `size` at once and starts waiters in the order they came', async () => {
    const slots = new AttemptSlots(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      slots.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await new Promise((tick) => setImmediate(tick));
    expect(started).toEqual([0, 1]);
    gates[1].resolve();
    await runs[1];
    await new Promise((tick) => setImmediate(tick));
    expect(started).toEqual([0, 1, 2]);
    gates[0].resolve();
    gates[2].resolve();
    gates[3].resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('frees the slot of a run that throws', async () => {
    const slots = new AttemptSlots(1);
    await expect(slots.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
