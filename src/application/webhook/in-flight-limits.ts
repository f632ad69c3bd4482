/**
 * Caps on a worker's attempts in flight per tenant and per endpoint (fairness): receivers that
 * hang can hold at most their tenant's and their endpoint's share of the worker's slots, and the
 * other tenants' deliveries keep the rest. Counted in this process, where the slots are.
 */
export class InFlightLimits {
  private readonly byTenant = new Map<string, number>();
  private readonly byEndpoint = new Map<string, number>();

  constructor(
    readonly perTenant: number,
    readonly perEndpoint: number,
  ) {}

  /**
   * A slot for one attempt: returns its release, or null when the tenant or the endpoint already
   * has its cap in flight. An unknown key (a job from before the keys existed) is not counted.
   */
  tryAcquire(tenantId: string | undefined, endpoint: string | undefined): (() => void) | null {
    const tenantKey = tenantId ?? '';
    const endpointKey = endpoint ?? '';
    if (tenantId && (this.byTenant.get(tenantKey) ?? 0) >= this.perTenant) return null;
    if (endpoint && (this.byEndpoint.get(endpointKey) ?? 0) >= this.perEndpoint) return null;
    if (tenantId) this.byTenant.set(tenantKey, (this.byTenant.get(tenantKey) ?? 0) + 1);
    if (endpoint) this.byEndpoint.set(endpointKey, (this.byEndpoint.get(endpointKey) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (tenantId) decrement(this.byTenant, tenantKey);
      if (endpoint) decrement(this.byEndpoint, endpointKey);
    };
  }

  /** Attempts in flight now for a tenant (for tests and gauges). */
  inFlightFor(tenantId: string): number {
    return this.byTenant.get(tenantId) ?? 0;
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}
