import type { AttemptSlot } from './attempt-slot';
import { SlotWaiters } from './slot-waiters';

export type { AttemptSlot } from './attempt-slot';

/**
 * Caps on a worker's attempts in flight: in all (WEBHOOK_CONCURRENCY: a job may carry several
 * attempts), and per tenant and per endpoint, an endpoint being one tenant's URL origin (fairness:
 * every cap but the worker's counts what one tenant owns, so no tenant's attempts can fill a cap
 * that another tenant's attempt needs). Receivers that hang hold at most their tenant's share of
 * the worker's slots. When hanging receivers of several tenants fill the whole worker anyway, a
 * tenant with nothing in flight still gets one slot, from a `reserve` above the worker's cap: no
 * tenant's first attempt waits for other tenants' receivers. Counted in this process, where the
 * slots are.
 */
export class InFlightLimits {
  private total = 0;
  private readonly byTenant = new Map<string, number>();
  private readonly byEndpoint = new Map<string, number>();
  /** When a slot of each key was last released: a key whose slots move is not stuck. */
  private workerReleasedAt = -Infinity;
  private readonly tenantReleasedAt = new Map<string, number>();
  private readonly endpointReleasedAt = new Map<string, number>();
  /** Attempts waiting for a slot (SlotWaiters). */
  private readonly waiters = new SlotWaiters();
  private readonly fitsNow = (tenantId: string | undefined, endpoint: string | undefined) => this.fits(tenantId, endpoint);

  constructor(
    readonly perTenant: number,
    readonly perEndpoint: number,
    readonly perWorker = Number.POSITIVE_INFINITY,
    /** Slots above `perWorker`, one each for tenants with nothing in flight. */
    readonly reserve = 0,
  ) {}

  /**
   * A slot for one attempt: returns its release, or null when the worker, the tenant or the
   * endpoint already has its cap in flight. An unknown key (a job from before the keys existed) is not counted.
   */
  tryAcquire(tenantId: string | undefined, endpoint: string | undefined): AttemptSlot | null {
    if (!this.fits(tenantId, endpoint)) return null;
    return this.take(tenantId, endpoint);
  }

  /**
   * As tryAcquire, but when the caps that are full are making progress (one of their slots was
   * released within `progressMs`), waits up to `waitMs` for a slot. A busy receiver that answers
   * frees slots all the time, so its attempts do not leave the worker; one that hangs frees none,
   * and its attempts are handed back (null) at once, leaving the slots to others.
   */
  acquire(tenantId: string | undefined, endpoint: string | undefined, waitMs: number, progressMs = 1000, now = Date.now()): Promise<AttemptSlot | null> {
    const slot = this.tryAcquire(tenantId, endpoint);
    if (slot || waitMs <= 0 || !this.progressing(tenantId, endpoint, progressMs, now)) return Promise.resolve(slot);
    return this.waiters.wait(tenantId, endpoint, waitMs);
  }

  /** Attempts in flight now in this worker (for tests and gauges). */
  inFlight(): number {
    return this.total;
  }

  /** Attempts in flight now for a tenant (for tests and gauges). */
  inFlightFor(tenantId: string): number {
    return this.byTenant.get(tenantId) ?? 0;
  }

  /** Whether every key at its cap had a slot released within `progressMs`. */
  private progressing(tenantId: string | undefined, endpoint: string | undefined, progressMs: number, now: number): boolean {
    const moved = (at: number | undefined) => now - (at ?? Number.NEGATIVE_INFINITY) <= progressMs;
    if (this.total >= this.perWorker && !moved(this.workerReleasedAt)) return false;
    if (tenantId && (this.byTenant.get(tenantId) ?? 0) >= this.perTenant && !moved(this.tenantReleasedAt.get(tenantId))) return false;
    return !(endpoint && (this.byEndpoint.get(endpoint) ?? 0) >= this.perEndpoint && !moved(this.endpointReleasedAt.get(endpoint)));
  }

  private fits(tenantId: string | undefined, endpoint: string | undefined): boolean {
    if (this.total >= this.perWorker) {
      const idleTenant = tenantId !== undefined && !this.byTenant.has(tenantId);
      if (!idleTenant || this.total >= this.perWorker + this.reserve) return false;
    }
    if (tenantId && (this.byTenant.get(tenantId) ?? 0) >= this.perTenant) return false;
    return !(endpoint && (this.byEndpoint.get(endpoint) ?? 0) >= this.perEndpoint);
  }

  private take(tenantId: string | undefined, endpoint: string | undefined): AttemptSlot {
    this.total++;
    if (tenantId) this.byTenant.set(tenantId, (this.byTenant.get(tenantId) ?? 0) + 1);
    if (endpoint) this.byEndpoint.set(endpoint, (this.byEndpoint.get(endpoint) ?? 0) + 1);
    // The endpoint's part goes once: when the request ends, or with the rest if it never did.
    let endpointHeld = Boolean(endpoint);
    /** Frees the endpoint's part if it is still held; says whether it did. */
    const freeEndpoint = (at: number): boolean => {
      if (!endpointHeld || !endpoint) return false;
      endpointHeld = false;
      this.released(this.byEndpoint, this.endpointReleasedAt, endpoint, at);
      return true;
    };
    let released = false;
    const requestEnded = () => {
      if (freeEndpoint(Date.now())) this.wakeWaiters();
    };
    const release = () => {
      if (released) return;
      released = true;
      const at = Date.now();
      this.total--;
      this.workerReleasedAt = at;
      if (tenantId) this.released(this.byTenant, this.tenantReleasedAt, tenantId, at);
      freeEndpoint(at);
      this.wakeWaiters();
    };
    return Object.assign(release, { requestEnded });
  }

  /** One slot of `key` ended: its count goes down, and its release time is noted. */
  private released(counts: Map<string, number>, releases: Map<string, number>, key: string, at: number): void {
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
    releases.set(key, at);
    // Bounded by the keys seen lately: old release times say nothing any more.
    if (releases.size > 10_000) {
      for (const [k, when] of releases) if (at - when > 60_000) releases.delete(k);
    }
  }

  /** Gives freed room to the longest-waiting attempts that now fit, in arrival order. */
  private wakeWaiters(): void {
    for (let next = this.waiters.takeFirst(this.fitsNow); next !== null; next = this.waiters.takeFirst(this.fitsNow)) {
      next.resolve(this.take(next.tenantId, next.endpoint));
    }
  }
}
