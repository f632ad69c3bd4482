import { hash, randomBytes } from 'node:crypto';
import { CreateApiKey } from '../../src/application/api-key/create-api-key.use-case';
import { inContext, sqlIn } from '../support/database';
import { RedisSeal } from '../../src/infrastructure/crypto/redis-seal';
import { RedisApiKeyCache } from '../../src/infrastructure/api-keys/redis-api-key.cache';
import { connectedLimiter } from '../support/redis-limiter';
import { RedisRateLimiter } from '../../src/infrastructure/rate-limit/redis-rate-limiter';
import { RevokeApiKey } from '../../src/application/api-key/revoke-api-key.use-case';
import { brandBody } from '../support/builders/request-bodies';
import { createTenant, startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
let second: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // A second API instance with its own connection pool: revocation must reach it too.
  second = await startTestApp();
});
afterAll(async () => {
  await second.close();
  await t.close();
});

const UNAUTHORIZED_BODY = { code: 'UNAUTHORIZED', message: 'A valid API key is required in the x-api-key header.' };

describe('x-api-key authentication', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['malformed', 'hello'],
    ['unknown, well-formed', `lp_${'A'.repeat(43)}`],
    ['a key with a trailing space', 'lp_AAAA '],
  ])('answers a %s key with the one 401 body and WWW-Authenticate', async (_, key) => {
    const req = t.http.get('/v0/brands');
    const res = key === undefined ? await req : await req.set('x-api-key', key);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('ApiKey header="x-api-key"');
    expect(res.body).toEqual({ ...UNAUTHORIZED_BODY, requestId: res.headers['x-request-id'] });
  });

  it('refuses a revoked key at once, in every API instance, with the same body', async () => {
    const tenant = await createTenant(t);
    expect((await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey)).status).toBe(200);
    expect((await second.http.get('/v0/brands').set('x-api-key', tenant.apiKey)).status).toBe(200);
    await inContext(t.orm, () => t.app.get(RevokeApiKey).execute({ apiKeyId: tenant.apiKeyId }));
    for (const instance of [t, second]) {
      const res = await instance.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject(UNAUTHORIZED_BODY);
    }
  });

  it('checks the key before anything about the body, and writes nothing', async () => {
    const bad = await t.http.post('/v0/brands').set('content-type', 'application/json').send('{"name":');
    expect(bad.status).toBe(401);
    const text = await t.http.post('/v0/brands').set('content-type', 'text/plain').send('hello');
    expect(text.status).toBe(401);
    const good = await t.http.post('/v0/brands').send(brandBody());
    expect(good.status).toBe(401);
  });

  it('protects every /v0 route, known or not yet routed', async () => {
    for (const [method, path] of [['get', '/v0/brands'], ['post', '/v0/brands'], ['get', '/v0/brands/brand_01jdq8w9k1a2b3c4d5e6f7g8h9'], ['patch', '/v0/brands/brand_01jdq8w9k1a2b3c4d5e6f7g8h9']] as const) {
      expect((await t.http[method](path)).status).toBe(401);
    }
  });
});

describe('x-api-key with the key cache in Redis (two API instances, as production runs them)', () => {
  const prefix = `test-${randomBytes(4).toString('hex')}:`;
  let one: TestApp;
  let two: TestApp;
  const limiters: RedisRateLimiter[] = [];
  beforeAll(async () => {
    const withCache = async () => {
      const limiter = await connectedLimiter('redis://127.0.0.1:6379', prefix);
      limiters.push(limiter);
      return startTestApp({ rateLimiter: limiter, apiKeyCache: new RedisApiKeyCache(limiter.redis, prefix, new RedisSeal(Buffer.alloc(32, 9), 'api-key-cache')), env: { RATE_LIMIT_MAX: '100' } });
    };
    [one, two] = await Promise.all([withCache(), withCache()]);
  });
  afterAll(async () => {
    await Promise.all([one.close(), two.close()]);
    for (const limiter of limiters) limiter.close();
  });

  it('answers a key seen before from the cache: a revocation written past the use case goes unseen, so revocation must go through it', async () => {
    const tenant = await createTenant(one);
    expect((await one.http.get('/v0/brands').set('x-api-key', tenant.apiKey)).status).toBe(200);
    await sqlIn(one.orm, 'UPDATE api_keys SET revoked_at = now() WHERE id = ?', [tenant.apiKeyId]);
    // No lookup in PostgreSQL: the cached key is still let in, by either instance.
    expect((await one.http.get('/v0/brands').set('x-api-key', tenant.apiKey)).status).toBe(200);
    expect((await two.http.get('/v0/brands').set('x-api-key', tenant.apiKey)).status).toBe(200);
  });

  it('grants nothing for an entry written straight into Redis: an unknown key stays 401, a scoped key keeps its scopes (decisions.md 180)', async () => {
    const tenant = await createTenant(one);
    const redis = limiters[0].redis;
    const entry = (key: string) => `${prefix}apikey:{${hash('sha256', key, 'hex')}}`;
    const madeUp = `lp_${randomBytes(32).toString('base64url')}`;
    for (const value of [`${tenant.tenantId} ${tenant.apiKeyId} *`, `${tenant.tenantId} ${tenant.apiKeyId}`, `${tenant.tenantId} ${tenant.apiKeyId} * ${'A'.repeat(22)}`]) {
      await redis.set(entry(madeUp), value, 'PX', 60_000);
      for (const instance of [one, two]) expect((await instance.http.get('/v0/brands').set('x-api-key', madeUp)).status).toBe(401);
    }
    const scoped = await inContext(one.orm, () => one.app.get(CreateApiKey).execute({ tenantId: tenant.tenantId, scopes: ['brands:read'] }));
    expect((await one.http.get('/v0/brands').set('x-api-key', scoped.apiKey)).status).toBe(200);
    const [tenantId, apiKeyId, scopes, seal] = (await redis.get(entry(scoped.apiKey)))!.split(' ');
    expect(scopes).toBe('brands:read');
    await redis.set(entry(scoped.apiKey), `${tenantId} ${apiKeyId} * ${seal}`, 'PX', 60_000);
    expect((await two.http.post('/v0/brands').set('x-api-key', scoped.apiKey).send(brandBody())).status).toBe(403);
  });

  it('refuses a revoked key on its next request in every instance, and counts one budget across them', async () => {
    const tenant = await createTenant(one);
    const budget = async (app: TestApp) => {
      const res = await app.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
      expect(res.status).toBe(200);
      return { remaining: Number(res.headers['ratelimit-remaining']), reset: Number(res.headers['ratelimit-reset']) };
    };
    // A budget is per fixed window (10 s here): three requests that a window's end fell among are
    // made again in the next window, where they all fit. Within one window the time to reset only
    // goes down; a new window's starts over at the top.
    let seen: { remaining: number; reset: number }[] = [];
    for (let tries = 0; tries < 3; tries++) {
      seen = [await budget(one), await budget(two), await budget(one)];
      if (seen.every((b, i) => i === 0 || b.reset <= seen[i - 1].reset)) break;
    }
    const first = seen[0].remaining;
    expect(seen.map((b) => b.remaining)).toEqual([first, first - 1, first - 2]);
    expect(first).toBeLessThanOrEqual(99);
    await inContext(one.orm, () => one.app.get(RevokeApiKey).execute({ apiKeyId: tenant.apiKeyId }));
    for (const instance of [one, two]) {
      const res = await instance.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject(UNAUTHORIZED_BODY);
    }
  });
});
