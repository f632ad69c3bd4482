import type { RedisConnection } from '../redis/redis-connection';
import { ApiKeyCache, CachedKey } from '../../application/api-key/api-key-cache.port';
import type { RateLimitDecision } from '../../application/rate-limit/rate-limiter.port';
import type { ApiKeyPrincipal } from '../../domain/api-key/api-key-repository.port';
import { isApiKeyScope } from '../../domain/api-key/api-key-scope';
import { decision, pipelinedRefunds, REFUND, windowAt } from '../rate-limit/fixed-window';
import { RefundBatch } from '../rate-limit/refund-batch';
import { RedisSeal } from '../crypto/redis-seal';

/**
 * How long an entry lives. A principal: how long a copy could outlive a revocation whose mark was
 * lost with Redis (a Redis that comes back with its data; ours keeps none). A revocation mark:
 * longer than any request that read the key as active before the revocation committed can take
 * to cache it (statements end within 30 s), so that such a request finds the mark and caches nothing.
 */
const PRINCIPAL_TTL_MS = 60_000;
const REVOKED_TTL_MS = 60_000;
const REVOKED = 'revoked';

// The entry and the key's budget in one round trip: a miss or a mark counts nothing (the request
// is counted once it is known to be a key's, or as a failed authentication).
const LOOKUP_AND_COUNT = `local p = redis.call('GET', KEYS[1])
if not p then return 0 end
if p == '${REVOKED}' then return 1 end
local c = redis.call('INCR', KEYS[2])
if c == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
return {p, c}`;

// A revocation's mark is never overwritten by a principal read before the revocation committed;
// anything else is (an entry whose seal did not hold is why the key was looked up again).
const REMEMBER_AND_COUNT = `if redis.call('GET', KEYS[1]) ~= '${REVOKED}' then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
local c = redis.call('INCR', KEYS[2])
if c == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
return c`;

// An entry: `<tenant> <key id> <scopes> <seal>`, the scopes comma-separated or `*` for full
// access, the seal a MAC of the key's hash and the three (RedisSeal, a key Redis never holds). An
// entry whose seal does not hold, or of another shape (written by anyone who can write to Redis,
// or cached by an older version), grants nothing: the key is looked up again (decisions.md 180).
const FULL_ACCESS = '*';
/** Entries whose seal held, kept by this process: a key's requests then cost no MAC each. */
const VERIFIED_MAX = 10_000;
const scopesOf = (principal: ApiKeyPrincipal): string => (principal.scopes === null ? FULL_ACCESS : principal.scopes.join(','));

type Scripts = {
  apiKeyLookupAndCount(entry: string, budget: string, budgetTtl: number): Promise<0 | 1 | [string, number]>;
  apiKeyRememberAndCount(entry: string, budget: string, budgetTtl: number, principal: string, principalTtl: number): Promise<number>;
};

/**
 * The key cache in the Redis that holds the request budgets, on the rate limiter's connection (same
 * timeouts: a Redis away costs a request at most 250 ms, then PostgreSQL answers). Entries and
 * budgets are keyed by the key's SHA-256 (never the key), the two of a key in one hash slot.
 */
export class RedisApiKeyCache extends ApiKeyCache {
  /** 304s' refunds, sent together a tick (RefundBatch). */
  private readonly refunds: RefundBatch;
  /** `<key hash> <entry>` → its principal, for entries whose seal held (at most VERIFIED_MAX, then started afresh). */
  private readonly verified = new Map<string, ApiKeyPrincipal>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    private readonly seal: RedisSeal,
  ) {
    super();
    redis.defineCommand('apiKeyLookupAndCount', { numberOfKeys: 2, lua: LOOKUP_AND_COUNT });
    redis.defineCommand('apiKeyRememberAndCount', { numberOfKeys: 2, lua: REMEMBER_AND_COUNT });
    redis.defineCommand('apiKeyRefund', { numberOfKeys: 1, lua: REFUND });
    this.refunds = new RefundBatch(pipelinedRefunds(redis, 'apiKeyRefund'));
  }

  async lookupAndCount(keyHash: string, limit: number, windowMs: number): Promise<CachedKey | null> {
    const { start, resetMs } = windowAt(Date.now(), windowMs);
    try {
      const answer = await this.scripts.apiKeyLookupAndCount(this.entry(keyHash), this.budget(keyHash, start), resetMs + 1000);
      if (answer === 0) return 'unknown';
      if (answer === 1) return REVOKED;
      const [entry, count] = answer;
      const principal = this.principalOf(keyHash, entry);
      // Counted already: the request is counted again once the key is looked up (at most once).
      if (!principal) return 'unknown';
      return { principal, budget: decision(Number(count), limit, resetMs, start) };
    } catch {
      return null;
    }
  }

  async rememberAndCount(keyHash: string, principal: ApiKeyPrincipal, limit: number, windowMs: number): Promise<RateLimitDecision | null> {
    const { start, resetMs } = windowAt(Date.now(), windowMs);
    try {
      const count = await this.scripts.apiKeyRememberAndCount(
        this.entry(keyHash),
        this.budget(keyHash, start),
        resetMs + 1000,
        this.entryOf(keyHash, principal),
        PRINCIPAL_TTL_MS,
      );
      return decision(Number(count), limit, resetMs, start);
    } catch {
      return null;
    }
  }

  refund(keyHash: string, windowStart: number): Promise<void> {
    return this.refunds.add(this.budget(keyHash, windowStart));
  }

  async markRevoked(keyHash: string): Promise<boolean> {
    try {
      await this.redis.set(this.entry(keyHash), REVOKED, 'PX', REVOKED_TTL_MS);
      return true;
    } catch {
      return false;
    }
  }

  private entryOf(keyHash: string, principal: ApiKeyPrincipal): string {
    const scopes = scopesOf(principal);
    return `${principal.tenantId} ${principal.apiKeyId} ${scopes} ${this.seal.of([keyHash, principal.tenantId, principal.apiKeyId, scopes])}`;
  }

  /** The entry's principal when it has four parts and its seal holds for this key; else null. */
  private principalOf(keyHash: string, entry: string): ApiKeyPrincipal | null {
    const memo = `${keyHash} ${entry}`;
    const known = this.verified.get(memo);
    if (known) return known;
    const parts = entry.split(' ');
    if (parts.length !== 4) return null;
    const [tenantId, apiKeyId, scopes, seal] = parts;
    if (!this.seal.holds([keyHash, tenantId, apiKeyId, scopes], seal)) return null;
    const principal = { tenantId, apiKeyId, scopes: scopes === FULL_ACCESS ? null : scopes.split(',').filter(isApiKeyScope) };
    if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
    this.verified.set(memo, principal);
    return principal;
  }

  private get scripts(): Scripts {
    return this.redis as unknown as Scripts;
  }

  private entry(keyHash: string): string {
    return `${this.prefix}apikey:{${keyHash}}`;
  }

  private budget(keyHash: string, windowStart: number): string {
    return `${this.prefix}rl:apikey:{${keyHash}}:${windowStart}`;
  }
}
