import { ApiKeyCache, CachedKey } from '../../../src/application/api-key/api-key-cache.port';
import { RateLimitDecision, RateLimiter } from '../../../src/application/rate-limit/rate-limiter.port';
import { ApiKey } from '../../../src/domain/api-key/api-key';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../../src/domain/api-key/api-key-repository.port';
import { ApiKeySecrets } from '../../../src/domain/api-key/api-key-secrets.port';
import { Tenant } from '../../../src/domain/tenant/tenant';
import { TenantRepository } from '../../../src/domain/tenant/tenant-repository.port';

export class InMemoryTenants extends TenantRepository {
  readonly rows = new Map<string, Tenant>();
  async findById(id: string): Promise<Tenant | null> {
    return this.rows.get(id) ?? null;
  }
  async add(tenant: Tenant): Promise<void> {
    this.rows.set(tenant.id, tenant);
  }
}

export class InMemoryApiKeys extends ApiKeyRepository {
  readonly rows = new Map<string, ApiKey>();
  async findById(id: string): Promise<ApiKey | null> {
    return this.rows.get(id) ?? null;
  }
  async findActiveByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    const key = [...this.rows.values()].find((k) => k.keyHash === keyHash && k.isActive());
    return key ? { apiKeyId: key.id, tenantId: key.tenantId, scopes: key.scopes } : null;
  }
  async listByTenant(tenantId: string): Promise<ApiKey[]> {
    return [...this.rows.values()].filter((key) => key.tenantId === tenantId).reverse();
  }
  async add(key: ApiKey): Promise<void> {
    this.rows.set(key.id, key);
  }
  async save(key: ApiKey): Promise<void> {
    this.rows.set(key.id, key);
  }
}

/** Predictable keys: `key-1`, `key-2`…, hashed as `hash(<key>)`; anything else is not a key. */
export class CountingSecrets extends ApiKeySecrets {
  private n = 0;
  generate() {
    const plainKey = `key-${++this.n}`;
    return { plainKey, keyHash: `hash(${plainKey})`, displayPrefix: plainKey.slice(0, 4) };
  }
  hash(plainKey: string): string | null {
    return plainKey.startsWith('key-') ? `hash(${plainKey})` : null;
  }
}

/**
 * The key cache's rules in memory (what RedisApiKeyCache does in Redis): an entry per hash, a
 * revocation mark that a later remember does not overwrite, a count per key; `reachable: false`
 * stands for Redis away.
 */
export class InMemoryApiKeyCache extends ApiKeyCache {
  readonly entries = new Map<string, ApiKeyPrincipal | 'revoked'>();
  readonly counts = new Map<string, number>();
  reachable = true;

  async lookupAndCount(keyHash: string, limit: number): Promise<CachedKey | null> {
    if (!this.reachable) return null;
    const entry = this.entries.get(keyHash);
    if (!entry) return 'unknown';
    if (entry === 'revoked') return 'revoked';
    return { principal: entry, budget: this.count(keyHash, limit) };
  }

  async rememberAndCount(keyHash: string, principal: ApiKeyPrincipal, limit: number, _windowMs?: number): Promise<RateLimitDecision | null> {
    if (!this.reachable) return null;
    if (!this.entries.has(keyHash)) this.entries.set(keyHash, principal);
    return this.count(keyHash, limit);
  }

  async refund(keyHash: string): Promise<void> {
    this.counts.set(keyHash, (this.counts.get(keyHash) ?? 1) - 1);
  }

  async markRevoked(keyHash: string): Promise<boolean> {
    if (!this.reachable) return false;
    this.entries.set(keyHash, 'revoked');
    return true;
  }

  private count(keyHash: string, limit: number): RateLimitDecision {
    const counted = (this.counts.get(keyHash) ?? 0) + 1;
    this.counts.set(keyHash, counted);
    return { allowed: counted <= limit, limit, remaining: Math.max(0, limit - counted), resetMs: 1000 };
  }
}

/** Counts hits per key, all allowed: what the limiter was asked, for use-case tests. */
export class CountingLimiter extends RateLimiter {
  readonly hits: string[] = [];
  async hit(key: string, limit: number): Promise<RateLimitDecision> {
    this.hits.push(key);
    return { allowed: true, limit, remaining: limit - 1, resetMs: 1000 };
  }
  async refund(key: string): Promise<void> {
    this.hits.push(`refund ${key}`);
  }
  /** What `peek` answers for each key (0 when not set). */
  readonly counted = new Map<string, number>();
  async peek(key: string): Promise<number> {
    this.hits.push(`peek ${key}`);
    return this.counted.get(key) ?? 0;
  }
}

/** A repository that counts its lookups by hash (the round trips to PostgreSQL a request pays). */
export class CountingApiKeys extends InMemoryApiKeys {
  lookups = 0;
  override async findActiveByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    this.lookups++;
    return super.findActiveByHash(keyHash);
  }
}
