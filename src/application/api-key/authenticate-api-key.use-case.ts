import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../domain/api-key/api-key-repository.port';
import { ApiKeySecrets } from '../../domain/api-key/api-key-secrets.port';
import { RateLimitDecision, RateLimiter } from '../rate-limit/rate-limiter.port';
import { NotModifiedCost } from '../rate-limit/not-modified-cost';
import { ApiKeyCache } from './api-key-cache.port';

/** A request let in: whose key it is, and its budget counted (null when the limit store is away: fail open). */
export interface Admission {
  principal: ApiKeyPrincipal;
  budget: RateLimitDecision | null;
  /**
   * A 304 answered it: half a request's cost (decisions.md 176), so every second 304 of the
   * key's window is taken back off the budget. Says whether this one was.
   */
  refund(): boolean;
}

/**
 * Who sent a request, for the budget of failed authentications of its address (IPv4, or IPv6
 * /64): counted by the caller (ApiKeyGuard) when a request is refused.
 */
export interface Caller {
  /** The address's budget key, `authfail:<address>`. */
  failuresKey: string;
  failuresMax: number;
}

/**
 * Resolves a presented key to its tenant and counts the request against the key's budget. A key
 * the cache knows costs one round trip to it, the budget counted in the same; one it does not is
 * looked up in PostgreSQL and then cached with the count, unless its caller's address is over its
 * budget of failed authentications: then it is refused before PostgreSQL (decisions.md 182), so
 * that guessing keys from one address costs the database nothing. A key the cache knows (seen by
 * any process within a minute) is never refused for what others sent from its address. Revocation marks the cache after its
 * commit (RevokeApiKey), so a revoked key is refused on its next request in every process.
 */
@Injectable()
export class AuthenticateApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly secrets: ApiKeySecrets,
    private readonly cache: ApiKeyCache,
    private readonly limiter: RateLimiter,
  ) {}

  private readonly notModified = new NotModifiedCost();

  /** Null for a missing, malformed, unknown or revoked key: callers must not tell them apart. */
  /** `caller` is asked only when the cache does not know the key: reading the address costs (trusted proxies). */
  async execute(presented: string | undefined, budget: { limit: number; windowMs: number }, caller?: () => Caller): Promise<Admission | null> {
    if (!presented) return null;
    const hash = this.secrets.hash(presented);
    if (!hash) return null;
    const cached = await this.cache.lookupAndCount(hash, budget.limit, budget.windowMs);
    if (cached === 'revoked') return null;
    if (cached !== null && cached !== 'unknown') return { ...cached, refund: () => this.refundCached(hash, cached.budget) };
    // Only where a shared cache answered: without one (a single process, no Redis) every key is looked up, as before.
    if (cached === 'unknown' && caller && (await this.addressOverBudget(caller(), budget.windowMs))) return null;
    const principal = await this.keys.findActiveByHash(hash);
    if (!principal) return null;
    // Known to the cache from now on; without a cache (or with it away) the limiter counts alone.
    if (cached === 'unknown') {
      const counted = await this.cache.rememberAndCount(hash, principal, budget.limit, budget.windowMs);
      return { principal, budget: counted, refund: () => this.refundCached(hash, counted) };
    }
    const counted = await this.limiter.hit(`key:${principal.apiKeyId}`, budget.limit, budget.windowMs);
    const budgetKey = `key:${principal.apiKeyId}`;
    return { principal, budget: counted, refund: () => this.refundHalf(budgetKey, counted, (start) => this.limiter.refund(budgetKey, start)) };
  }

  private async addressOverBudget(caller: Caller, windowMs: number): Promise<boolean> {
    return ((await this.limiter.peek(caller.failuresKey, windowMs)) ?? 0) > caller.failuresMax;
  }

  private refundCached(hash: string, counted: RateLimitDecision | null): boolean {
    return this.refundHalf(hash, counted, (start) => this.cache.refund(hash, start));
  }

  /** Not awaited: the 304 goes out at once; a refund lost leaves the request counted, as it was. */
  private refundHalf(budget: string, counted: RateLimitDecision | null, refund: (windowStart: number) => Promise<void>): boolean {
    const start = counted?.windowStart;
    if (start === undefined || !this.notModified.refunds(budget, start)) return false;
    void refund(start).catch(() => undefined);
    return true;
  }
}
