import type { ApiKeyPrincipal } from '../../domain/api-key/api-key-repository.port';
import type { RateLimitDecision } from '../rate-limit/rate-limiter.port';

/** What the cache holds for a key: its principal (and the request is counted), nothing, or a revocation. */
export type CachedKey = { principal: ApiKeyPrincipal; budget: RateLimitDecision } | 'unknown' | 'revoked';

/**
 * Keys already seen, shared by every API process beside their request budgets (Redis), so that a
 * request with a known key costs one round trip there and none to PostgreSQL. A revocation marks
 * the key revoked here once it is committed: the mark overwrites a cached principal, and a
 * principal is only cached where no mark is, so no process can let the key in afterwards.
 */
export abstract class ApiKeyCache {
  /** The key's entry, its budget counted when it is a principal; null when the cache cannot be reached or there is none. */
  abstract lookupAndCount(keyHash: string, limit: number, windowMs: number): Promise<CachedKey | null>;
  /** Caches an active key's principal unless a revocation marked it meanwhile, and counts the request; null when unreachable. */
  abstract rememberAndCount(keyHash: string, principal: ApiKeyPrincipal, limit: number, windowMs: number): Promise<RateLimitDecision | null>;
  /** Takes back one request of the key counted in the window that began at `windowStart` (a 304). */
  abstract refund(keyHash: string, windowStart: number): Promise<void>;
  /** Marks the key revoked for every process; false when the cache cannot be reached. */
  abstract markRevoked(keyHash: string): Promise<boolean>;
}
