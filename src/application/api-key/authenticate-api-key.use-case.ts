import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../domain/api-key/api-key-repository.port';
import { ApiKeySecrets } from '../../domain/api-key/api-key-secrets.port';
import { RateLimitDecision, RateLimiter } from '../rate-limit/rate-limiter.port';
import { ApiKeyCache } from './api-key-cache.port';

/** A request let in: whose key it is, and its budget counted (null when the limit store is away: fail open). */
export interface Admission {
  principal: ApiKeyPrincipal;
  budget: RateLimitDecision | null;
  /** Takes this request's count back (a 304 does not count: decisions.md 140). */
  refund(): Promise<void>;
}

/**
 * Resolves a presented key to its tenant and counts the request against the key's budget. A key
 * the cache knows costs one round trip to it, the budget counted in the same; one it does not is
 * looked up in PostgreSQL and then cached with the count. Revocation marks the cache after its
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

  /** Null for a missing, malformed, unknown or revoked key: callers must not tell them apart. */
  async execute(presented: string | undefined, budget: { limit: number; windowMs: number }): Promise<Admission | null> {
    if (!presented) return null;
    const hash = this.secrets.hash(presented);
    if (!hash) return null;
    const cached = await this.cache.lookupAndCount(hash, budget.limit, budget.windowMs);
    if (cached === 'revoked') return null;
    if (cached !== null && cached !== 'unknown') return { ...cached, refund: () => this.refundCached(hash, cached.budget) };
    const principal = await this.keys.findActiveByHash(hash);
    if (!principal) return null;
    // Known to the cache from now on; without a cache (or with it away) the limiter counts alone.
    if (cached === 'unknown') {
      const counted = await this.cache.rememberAndCount(hash, principal, budget.limit, budget.windowMs);
      return { principal, budget: counted, refund: () => this.refundCached(hash, counted) };
    }
    const counted = await this.limiter.hit(`key:${principal.apiKeyId}`, budget.limit, budget.windowMs);
    const windowStart = counted?.windowStart;
    return { principal, budget: counted, refund: async () => (windowStart === undefined ? undefined : this.limiter.refund(`key:${principal.apiKeyId}`, windowStart)) };
  }

  private async refundCached(hash: string, counted: RateLimitDecision | null): Promise<void> {
    if (counted?.windowStart !== undefined) await this.cache.refund(hash, counted.windowStart);
  }
}
