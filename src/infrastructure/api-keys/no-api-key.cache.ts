import { ApiKeyCache, CachedKey } from '../../application/api-key/api-key-cache.port';
import type { RateLimitDecision } from '../../application/rate-limit/rate-limiter.port';

/**
 * No key cache: a service without Redis (or a test app) looks every key up in PostgreSQL and
 * counts with its rate limiter, and a revocation has nothing to tell.
 */
export class NoApiKeyCache extends ApiKeyCache {
  async lookupAndCount(): Promise<CachedKey | null> {
    return null;
  }

  async rememberAndCount(): Promise<RateLimitDecision | null> {
    return null;
  }

  async refund(): Promise<void> {}

  async markRevoked(): Promise<boolean> {
    return true;
  }
}
