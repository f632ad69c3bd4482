import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { AuthenticateApiKey } from '../../../../src/application/api-key/authenticate-api-key.use-case';
import { CreateApiKey } from '../../../../src/application/api-key/create-api-key.use-case';
import { RevocationNotCachedError, RevokeApiKey } from '../../../../src/application/api-key/revoke-api-key.use-case';
import { CreateTenant } from '../../../../src/application/tenant/create-tenant.use-case';
import { NotFoundError } from '../../../../src/domain/shared/domain-error';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { CountingApiKeys, CountingLimiter, CountingSecrets, InMemoryApiKeyCache, InMemoryTenants } from '../../../support/fakes/in-memory-keys';

const BUDGET = { limit: 100, windowMs: 10_000 };

function setup() {
  const tenants = new InMemoryTenants();
  const keys = new CountingApiKeys();
  const secrets = new CountingSecrets();
  const cache = new InMemoryApiKeyCache();
  const limiter = new CountingLimiter();
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  const authenticate = new AuthenticateApiKey(keys, secrets, cache, limiter);
  return {
    keys,
    cache,
    limiter,
    createTenant: new CreateTenant(tenants, clock, new ImmediateUnitOfWork()),
    createKey: new CreateApiKey(tenants, keys, secrets, clock, new ImmediateUnitOfWork()),
    revoke: new RevokeApiKey(keys, clock, new ImmediateUnitOfWork(), cache),
    authenticate,
    principalOf: async (presented: string | undefined) => (await authenticate.execute(presented, BUDGET))?.principal ?? null,
  };
}

describe('api key use cases', () => {
  it('issues a key that authenticates as its tenant, storing only its hash', async () => {
    const { createTenant, createKey, principalOf, keys } = setup();
    const { tenantId } = await createTenant.execute({ name: 'Acme' });
    const { apiKey, apiKeyId } = await createKey.execute({ tenantId });
    expect(await principalOf(apiKey)).toEqual({ apiKeyId, tenantId, scopes: null });
    expect(keys.rows.get(apiKeyId)!.keyHash).toBe(`hash(${apiKey})`);
    expect(JSON.stringify([...keys.rows.values()])).not.toContain(`"${apiKey}"`);
  });

  it('refuses a revoked key at once, and missing, malformed or unknown ones alike', async () => {
    const { createTenant, createKey, revoke, principalOf } = setup();
    const { tenantId } = await createTenant.execute({ name: 'Acme' });
    const { apiKey, apiKeyId } = await createKey.execute({ tenantId });
    expect(await principalOf(apiKey)).not.toBeNull();
    const revoked = await revoke.execute({ apiKeyId });
    expect(revoked).toEqual({ apiKeyId, revokedAt: '2026-11-22T12:00:00.000Z' });
    for (const presented of [apiKey, undefined, '', 'not a key', 'key-999']) {
      expect(await principalOf(presented)).toBeNull();
    }
  });

  it('looks a key up in PostgreSQL once, then answers and counts it from the cache alone', async () => {
    const { createTenant, createKey, authenticate, keys, cache, limiter } = setup();
    const { tenantId } = await createTenant.execute({ name: 'Acme' });
    const { apiKey, apiKeyId } = await createKey.execute({ tenantId });
    const first = await authenticate.execute(apiKey, BUDGET);
    const second = await authenticate.execute(apiKey, BUDGET);
    expect(first).toEqual({ principal: { apiKeyId, tenantId, scopes: null }, budget: expect.objectContaining({ allowed: true, remaining: 99 }), refund: expect.any(Function) });
    expect(second).toEqual({ principal: { apiKeyId, tenantId, scopes: null }, budget: expect.objectContaining({ remaining: 98 }), refund: expect.any(Function) });
    expect(keys.lookups).toBe(1);
    expect(limiter.hits).toEqual([]);
    expect(cache.counts.get(`hash(${apiKey})`)).toBe(2);
  });

  it('refuses a key the cache does not know from an address over its failure budget without looking it up, and admits one it knows (decisions.md 182)', async () => {
    const { createTenant, createKey, authenticate, keys, limiter } = setup();
    const { tenantId } = await createTenant.execute({ name: 'Acme' });
    const seen = await createKey.execute({ tenantId });
    const unseen = await createKey.execute({ tenantId });
    const caller = { failuresKey: 'authfail:192.0.2.7', failuresMax: 20 };
    expect(await authenticate.execute(seen.apiKey, BUDGET, () => caller)).not.toBeNull();
    expect(keys.lookups).toBe(1);
    limiter.counted.set(caller.failuresKey, 21);
    expect(await authenticate.execute(unseen.apiKey, BUDGET, () => caller)).toBeNull();
    expect(keys.lookups).toBe(1);
    expect(await authenticate.execute(seen.apiKey, BUDGET, () => caller)).toMatchObject({ principal: { apiKeyId: seen.apiKeyId } });
    // At its budget, not over it: looked up.
    limiter.counted.set(caller.failuresKey, 20);
    expect(await authenticate.execute(unseen.apiKey, BUDGET, () => caller)).toMatchObject({ principal: { apiKeyId: unseen.apiKeyId } });
    expect(keys.lookups).toBe(2);
  });

  it('refuses a revoked key from the cache’s mark, without a lookup, and a lookup read before the revocation caches nothing', async () => {
    const { createTenant, createKey, revoke, authenticate, keys, cache } = setup();
    const { tenantId } = await createTenant.execute({ name: 'Acme' });
    const { apiKey, apiKeyId } = await createKey.execute({ tenantId });
    await authenticate.execute(apiKey, BUDGET);
    await revoke.execute({ apiKeyId });
    const lookups = keys.lookups;
    expect(await authenticate.execute(apiKey, BUDGET)).toBeNull();
    expect(keys.lookups).toBe(lookups);
    // A request that read the key as active before the commit tries to cache it after the mark.
    await cache.rememberAndCount(`hash(${apiKey})`, { apiKeyId, tenantId, scopes: null }, 100, 10_000);
    expect(cache.entries.get(`hash(${apiKey})`)).toBe('revoked');
  });

  it('asks PostgreSQL and counts with the limiter while the cache is away, and says when a revocation could not reach it', async () => {
    const { createTenant, createKey, revoke, authenticate, keys, cache, limiter } = setup();
    const { tenantId } = await createTenant.execute({ name: 'Acme' });
    const { apiKey, apiKeyId } = await createKey.execute({ tenantId });
    cache.reachable = false;
    expect(await authenticate.execute(apiKey, BUDGET)).toEqual({ principal: { apiKeyId, tenantId, scopes: null }, budget: expect.objectContaining({ allowed: true }), refund: expect.any(Function) });
    expect(keys.lookups).toBe(1);
    expect(limiter.hits).toEqual([`key:${apiKeyId}`]);
    await expect(revoke.execute({ apiKeyId })).rejects.toThrow(RevocationNotCachedError);
    // The revocation is committed all the same: the key is refused from PostgreSQL.
    expect(await authenticate.execute(apiKey, BUDGET)).toBeNull();
    cache.reachable = true;
    expect(await revoke.execute({ apiKeyId })).toEqual({ apiKeyId, revokedAt: '2026-11-22T12:00:00.000Z' });
    expect(cache.entries.get(`hash(${apiKey})`)).toBe('revoked');
  });

  it('will not issue a key for an unknown tenant, nor revoke an unknown key', async () => {
    const { createKey, revoke } = setup();
    await expect(createKey.execute({ tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9' })).rejects.toThrow(NotFoundError);
    await expect(createKey.execute({ tenantId: 'garbage' })).rejects.toThrow(NotFoundError);
    await expect(revoke.execute({ apiKeyId: 'apikey_01jdq8w9k1a2b3c4d5e6f7g8h9' })).rejects.toThrow(NotFoundError);
  });
});
