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
});
