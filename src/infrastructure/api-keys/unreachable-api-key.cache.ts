import type { MikroORM } from '@mikro-orm/postgresql';
import { keyCacheHeld } from '../persistence/api-keys/key-cache-holders';
import { NoApiKeyCache } from './no-api-key.cache';

/**
 * The key cache as seen from a process that reaches no Redis (the operator's CLI on a machine
 * without it), while API processes elsewhere may keep one: it caches nothing itself (NoApiKeyCache),
 * and a revocation is only told to be complete when no API process holds a cache (their
 * registrations in PostgreSQL say so). Otherwise RevokeApiKey reports the revocation as not cached,
 * with how to finish it, rather than claiming a key refused that cached copies still let in.
 */
export class UnreachableApiKeyCache extends NoApiKeyCache {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  override async markRevoked(): Promise<boolean> {
    return !(await keyCacheHeld(this.orm));
  }
}
