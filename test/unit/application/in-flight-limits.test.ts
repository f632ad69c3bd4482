import { InFlightLimits } from '../../../src/application/webhook/in-flight-limits';

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
});
