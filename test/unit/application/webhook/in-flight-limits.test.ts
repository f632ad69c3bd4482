import { InFlightLimits } from '../../../../src/interfaces/worker/in-flight-limits';

describe('attempts in flight per tenant and per endpoint', () => {
  it('refuses a slot past either cap, and gives it again once one is released', () => {
    const limits = new InFlightLimits(2, 3);
    const a1 = limits.tryAcquire('tenant_a', 'hanging');
    const a2 = limits.tryAcquire('tenant_a', 'other');
    expect(a1 && a2).toBeTruthy();
    expect(limits.tryAcquire('tenant_a', 'third')).toBeNull();
    // Another tenant is not held back by tenant A's cap, only by the endpoint's.
    const b1 = limits.tryAcquire('tenant_b', 'hanging');
    const b2 = limits.tryAcquire('tenant_b', 'hanging');
    expect(b1 && b2).toBeTruthy();
    expect(limits.tryAcquire('tenant_c', 'hanging')).toBeNull();
    expect(limits.tryAcquire('tenant_c', 'fine')).not.toBeNull();
    a1!();
    a1!();
    expect(limits.inFlightFor('tenant_a')).toBe(1);
    expect(limits.tryAcquire('tenant_a', 'again')).not.toBeNull();
  });

  it("gives the endpoint's slot back when the request ends, and the tenant's and worker's with the attempt", () => {
    const limits = new InFlightLimits(2, 1, 2);
    const first = limits.tryAcquire('tenant_a', 'receiver')!;
    expect(limits.tryAcquire('tenant_a', 'receiver')).toBeNull();
    first.requestEnded();
    first.requestEnded(); // told twice, counted once
    const second = limits.tryAcquire('tenant_a', 'receiver')!;
    expect(second).not.toBeNull();
    // Two attempts hold the tenant's (and the worker's) caps until they are recorded.
    expect(limits.inFlightFor('tenant_a')).toBe(2);
    expect(limits.tryAcquire('tenant_a', 'elsewhere')).toBeNull();
    expect(limits.inFlight()).toBe(2);
    first();
    expect(limits.inFlightFor('tenant_a')).toBe(1);
    // The first's endpoint slot went with its request: the second's is still held.
    expect(limits.tryAcquire('tenant_b', 'receiver')).toBeNull();
    second();
    second.requestEnded(); // after the end: nothing more to give back
    expect(limits.inFlight()).toBe(0);
    const third = limits.tryAcquire('tenant_b', 'receiver');
    expect(third).not.toBeNull();
    expect(limits.tryAcquire('tenant_c', 'receiver')).toBeNull();
  });

  it('wakes an attempt waiting for the endpoint when a request ends, before the attempt does', async () => {
    const limits = new InFlightLimits(10, 1);
    const first = limits.tryAcquire('tenant_a', 'receiver')!;
    first.requestEnded();
    const held = limits.tryAcquire('tenant_a', 'receiver')!;
    // The endpoint released a slot just now: it is progressing, so the next attempt waits.
    const waiting = limits.acquire('tenant_a', 'receiver', 5_000);
    held.requestEnded();
    expect(await waiting).not.toBeNull();
    expect(limits.inFlightFor('tenant_a')).toBe(3);
  });

  it('does not count jobs without keys (made before the keys existed)', () => {
    const limits = new InFlightLimits(1, 1);
    expect([limits.tryAcquire(undefined, undefined), limits.tryAcquire(undefined, undefined)].every((r) => r !== null)).toBe(true);
  });

  it('hands a job back at once while the keys at their cap finish nothing (receivers that hang)', async () => {
    const limits = new InFlightLimits(1, 10);
    limits.tryAcquire('tenant_a', 'e');
    expect(await limits.acquire('tenant_a', 'e', 60_000)).toBeNull();
  });

  it('lets a job wait for a slot while the keys at their cap are finishing attempts, and no longer than its wait', async () => {
    const limits = new InFlightLimits(1, 10);
    limits.tryAcquire('tenant_a', 'e')!();
    const first = limits.tryAcquire('tenant_a', 'e');
    // A slot of tenant A was released just now: A is progressing, so the next job waits.
    const waiting = limits.acquire('tenant_a', 'e', 5_000);
    const tooShort = await limits.acquire('tenant_a', 'e', 1);
    expect(tooShort).toBeNull();
    first!();
    const granted = await waiting;
    expect(granted).not.toBeNull();
    expect(limits.inFlightFor('tenant_a')).toBe(1);
    granted!();
    expect(limits.inFlightFor('tenant_a')).toBe(0);
  });

  it('caps the attempts in flight in the whole worker, whoever they are for (a job may carry several)', async () => {
    const limits = new InFlightLimits(10, 10, 3);
    const slots = [limits.tryAcquire('tenant_a', 'e1'), limits.tryAcquire('tenant_b', 'e2'), limits.tryAcquire('tenant_c', 'e3')];
    expect(slots.every((slot) => slot !== null)).toBe(true);
    expect(limits.tryAcquire('tenant_d', 'e4')).toBeNull();
    expect(limits.inFlight()).toBe(3);
    // A full worker that finishes nothing (every slot on a receiver that hangs) hands attempts back…
    expect(await limits.acquire('tenant_d', 'e4', 60_000)).toBeNull();
    // …and one that finishes attempts lets the next wait for the freed slot.
    slots[0]!();
    const held = limits.tryAcquire('tenant_a', 'e1');
    const waiting = limits.acquire('tenant_d', 'e4', 5_000);
    held!();
    const granted = await waiting;
    expect(granted).not.toBeNull();
    expect(limits.inFlight()).toBe(3);
  });

  it('gives a tenant with nothing in flight one slot from the reserve when other tenants fill the worker, and no more', () => {
    const limits = new InFlightLimits(10, 10, 4, 2);
    const noisy = [1, 2, 3, 4].map((i) => limits.tryAcquire(`tenant_${i % 2}`, `e${i}`));
    expect(noisy.every((slot) => slot !== null)).toBe(true);
    // The worker is full: a busy tenant gets nothing more…
    expect(limits.tryAcquire('tenant_0', 'e9')).toBeNull();
    // …an idle one gets its first slot, and only one.
    const first = limits.tryAcquire('tenant_x', 'ex');
    expect(first).not.toBeNull();
    expect(limits.tryAcquire('tenant_x', 'ex')).toBeNull();
    expect(limits.tryAcquire('tenant_y', 'ey')).not.toBeNull();
    // The reserve is used up.
    expect(limits.tryAcquire('tenant_z', 'ez')).toBeNull();
    expect(limits.inFlight()).toBe(6);
    first!();
    expect(limits.tryAcquire('tenant_z', 'ez')).not.toBeNull();
  });

  it('grants freed slots to the waiting attempts in their order of arrival, whichever tenant and endpoint they are for', async () => {
    const limits = new InFlightLimits(10, 10, 2);
    limits.tryAcquire('tenant_a', 'e1')!();
    const [a, b] = [limits.tryAcquire('tenant_a', 'e1'), limits.tryAcquire('tenant_b', 'e2')];
    const granted: string[] = [];
    const wait = (tenant: string, endpoint: string, name: string) => limits.acquire(tenant, endpoint, 5_000).then((release) => (granted.push(name), release));
    const waits = [wait('tenant_c', 'e3', 'c1'), wait('tenant_a', 'e1', 'a'), wait('tenant_c', 'e3', 'c2')];
    b!();
    const c1 = await waits[0];
    a!();
    await waits[1];
    c1!();
    await waits[2];
    expect(granted).toEqual(['c1', 'a', 'c2']);
    expect(limits.inFlight()).toBe(2);
  });

  it('gives a freed slot of one endpoint to its waiting attempt while hundreds wait on another endpoint at its cap', async () => {
    const limits = new InFlightLimits(1_000, 1);
    limits.tryAcquire('tenant_a', 'busy')!();
    limits.tryAcquire('tenant_a', 'busy');
    const queued = Array.from({ length: 300 }, () => limits.acquire('tenant_a', 'busy', 50));
    limits.tryAcquire('tenant_a', 'other')!();
    const other = limits.tryAcquire('tenant_a', 'other');
    const waiting = limits.acquire('tenant_a', 'other', 5_000);
    other!();
    expect(await waiting).not.toBeNull();
    // The busy endpoint's attempts gave up after their wait, none granted.
    expect((await Promise.all(queued)).every((slot) => slot === null)).toBe(true);
  });

  it('grants thousands of attempts waiting on one key one by one in their order of arrival, and hands back those whose wait ended', async () => {
    const limits = new InFlightLimits(10_000, 1);
    limits.tryAcquire('tenant_a', 'busy')!();
    const first = limits.tryAcquire('tenant_a', 'busy')!;
    const order: number[] = [];
    const queued = Array.from({ length: 3_000 }, (_, n) =>
      limits.acquire('tenant_a', 'busy', 60_000).then((release) => {
        order.push(n);
        return release;
      }),
    );
    // A short wait among them ends on its own while the others are still queued.
    const short = limits.acquire('tenant_a', 'busy', 5);
    expect(await short).toBeNull();
    first();
    for (const waiting of queued) (await waiting)!();
    expect(order).toEqual(Array.from({ length: 3_000 }, (_, n) => n));
    expect(limits.inFlight()).toBe(0);
  });
});
