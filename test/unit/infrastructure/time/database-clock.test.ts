import { DatabaseClock } from '../../../../src/infrastructure/time/database-clock';

describe("the service's clock (the database's, decisions.md 181)", () => {
  it("moves this host's time by the database clock's offset, measured at the round trip's midpoint", async () => {
    const ahead = new DatabaseClock(async () => Date.now() + 5000);
    await ahead.measure();
    expect(Math.abs(ahead.offset - 5000)).toBeLessThanOrEqual(2);
    const before = Date.now();
    expect(ahead.now().getTime() - before).toBeGreaterThanOrEqual(4998);
    const behind = new DatabaseClock(async () => Date.now() - 3000);
    await behind.measure();
    expect(Math.abs(behind.offset + 3000)).toBeLessThanOrEqual(2);
  });

  it('reads an offset within the round trip as none, and keeps the last offset when the database cannot be asked', async () => {
    const same = new DatabaseClock(async () => Date.now());
    await same.measure();
    expect(same.offset).toBe(0);
    let away = false;
    const clock = new DatabaseClock(async () => {
      if (away) throw new Error('connection refused');
      return Date.now() + 60_000;
    });
    await clock.start();
    away = true;
    await clock.measure();
    expect(Math.abs(clock.offset - 60_000)).toBeLessThanOrEqual(2);
    clock.onModuleDestroy();
  });
});
