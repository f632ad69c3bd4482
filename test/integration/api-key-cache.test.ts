import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { RedisApiKeyCache } from '../../src/infrastructure/api-keys/redis-api-key.cache';
import { RedisSeal } from '../../src/infrastructure/crypto/redis-seal';
import { freePort as closedPort } from '../support/ports';

// The key cache in the real Redis: its entries, its count, the revocation mark a late remember
// does not overwrite, and what it answers when Redis is away.
const redis = new IORedis('redis://127.0.0.1:6379');
const prefix = `test-${randomBytes(4).toString('hex')}:`;
const seal = new RedisSeal(randomBytes(32), 'api-key-cache');
const cache = new RedisApiKeyCache(redis, prefix, seal);
const principal = { tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', apiKeyId: 'apikey_01jdq8w9k1a2b3c4d5e6f7g8h9', scopes: null };
const hash = () => randomBytes(32).toString('hex');

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('RedisApiKeyCache', () => {
  it('knows nothing of a new key; once remembered, answers it and counts its budget in the same round trip', async () => {
    const key = hash();
    expect(await cache.lookupAndCount(key, 3, 10_000)).toBe('unknown');
    expect(await cache.rememberAndCount(key, principal, 3, 10_000)).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(await cache.lookupAndCount(key, 3, 10_000)).toEqual({ principal, budget: expect.objectContaining({ allowed: true, remaining: 1 }) });
    await cache.lookupAndCount(key, 3, 10_000);
    expect(await cache.lookupAndCount(key, 3, 10_000)).toEqual({ principal, budget: expect.objectContaining({ allowed: false, remaining: 0 }) });
    // Keyed by the hash in one hash slot, never by the key; entries expire.
    const stored = await redis.keys(`${prefix}*${key}*`);
    expect(stored.every((k) => k.includes(`{${key}}`))).toBe(true);
    expect(await redis.pttl(`${prefix}apikey:{${key}}`)).toBeGreaterThan(0);
  });

  it("carries a key's scopes with its principal; an entry of an older shape, or whose seal does not hold, grants nothing and is replaced (decisions.md 180)", async () => {
    const scoped = hash();
    const reporting = { ...principal, scopes: ['brands:read', 'events:read'] as const };
    await cache.rememberAndCount(scoped, { ...reporting, scopes: [...reporting.scopes] }, 100, 10_000);
    expect(await cache.lookupAndCount(scoped, 100, 10_000)).toMatchObject({ principal: { scopes: ['brands:read', 'events:read'] } });
    const entry = (key: string) => `${prefix}apikey:{${key}}`;
    const sealed = (await redis.get(entry(scoped)))!;
    const another = hash();
    const forged = [
      `${principal.tenantId} ${principal.apiKeyId}`, // cached before scopes existed: read as full access once
      `${principal.tenantId} ${principal.apiKeyId} *`, // before seals
      `${principal.tenantId} ${principal.apiKeyId} * ${sealed.split(' ')[3]}`, // the scopes widened under another entry's seal
      sealed, // a whole entry copied to another key
      `${principal.tenantId} ${principal.apiKeyId} * ${new RedisSeal(randomBytes(32), 'api-key-cache').of([another, principal.tenantId, principal.apiKeyId, '*'])}`, // another key's seal
    ];
    for (const value of forged) {
      await redis.set(entry(another), value, 'PX', 10_000);
      expect({ value, found: await cache.lookupAndCount(another, 100, 10_000) }).toEqual({ value, found: 'unknown' });
    }
    // Looked up again, the key's real principal replaces what was there.
    await cache.rememberAndCount(another, principal, 100, 10_000);
    expect(await cache.lookupAndCount(another, 100, 10_000)).toMatchObject({ principal });
  });

  it('takes a count back on refund (a 304), only in the window counted, never below an absent key', async () => {
    const key = hash();
    const first = (await cache.rememberAndCount(key, principal, 10, 10_000))!;
    await cache.lookupAndCount(key, 10, 10_000);
    await cache.refund(key, first.windowStart!);
    const third = await cache.lookupAndCount(key, 10, 10_000);
    expect(third).toMatchObject({ budget: { remaining: 8 } });
    // A refund for a window whose key has expired leaves nothing behind.
    await cache.refund(key, first.windowStart! - 10_000);
    expect(await redis.exists(`${prefix}rl:apikey:{${key}}:${first.windowStart! - 10_000}`)).toBe(0);
  });

  it('keeps a revocation mark over a principal cached before it and one remembered after it', async () => {
    const key = hash();
    await cache.rememberAndCount(key, principal, 100, 10_000);
    expect(await cache.markRevoked(key)).toBe(true);
    expect(await cache.lookupAndCount(key, 100, 10_000)).toBe('revoked');
    // A request that read the key as active before the revocation committed, caching it now.
    await cache.rememberAndCount(key, principal, 100, 10_000);
    expect(await cache.lookupAndCount(key, 100, 10_000)).toBe('revoked');
  });

  it('answers null (ask PostgreSQL) and false (not told) when Redis is away', async () => {
    const away = new IORedis(`redis://127.0.0.1:${await closedPort()}`, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    away.on('error', () => {});
    const unreachable = new RedisApiKeyCache(away, prefix, seal);
    expect(await unreachable.lookupAndCount(hash(), 100, 10_000)).toBeNull();
    expect(await unreachable.rememberAndCount(hash(), principal, 100, 10_000)).toBeNull();
    expect(await unreachable.markRevoked(hash())).toBe(false);
    away.disconnect();
  });
});
