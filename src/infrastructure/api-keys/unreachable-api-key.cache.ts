import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiKeyCache, CachedKey } from '../../application/api-key/api-key-cache.port';
import type { RateLimitDecision } from '../../application/rate-limit/rate-limiter.port';
import { keyCacheHeld } from '../persistence/api-keys/key-cache-holders';

/**
 * The key cache as seen from a process that reaches no Redis (the operator's CLI on a machine
 * without it), while API processes elsewhere may keep one: it caches nothing itself, and a
 * revocation is only told to be complete when no API process holds a cache (their registrations
 * in PostgreSQL say so). Otherwise RevokeApiKey reports the revocation as not cached, with how to
 * finish it, rather than claiming a key refused that cached copies still let in.
 */
export class UnreachableApiKeyCache extends ApiKeyCache {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async lookupAndCount(): Promise<CachedKey | null> {
    return null;
  }

  async rememberAndCount(): Promise<RateLimitDecision | null> {
    return null;
  }

  async refund(): Promise<void> {}

  async markRevoked(): Promise<boolean> {
    return !(await keyCacheHeld(this.orm));
  }
}
