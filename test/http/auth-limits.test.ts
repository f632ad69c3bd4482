import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { RedisApiKeyCache } from '../../src/infrastructure/api-keys/redis-api-key.cache';
import { RedisSeal } from '../../src/infrastructure/crypto/redis-seal';
import { RedisRateLimiter } from '../../src/infrastructure/rate-limit/redis-rate-limiter';
import { connectedLimiter } from '../support/redis-limiter';
import { loadConfig } from '../../src/infrastructure/config/app-config';
import { MemoryRateLimiter } from '../../src/infrastructure/rate-limit/memory-rate-limiter';
import { brandBody } from '../support/builders/request-bodies';
import { rows } from '../support/platform';
import { createTenant, startTestApp, TestApp } from '../support/test-app';

// Windows are aligned to the clock: a day-long one keeps a window edge out of a test's few seconds.
const limits = (authFailures: number) => ({ RATE_LIMIT_MAX: '1000', RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_AUTH_FAILURES_MAX: String(authFailures) });
const unknownKey = (i: number) => `lp_${String(i).padStart(43, 'x')}`;

/**
 * Sends a request's head with a Content-Length but holds its body back, and resolves with the
 * status line the server answers with before any body byte was sent (or null if it waits for it).
 */
function answerWithoutBody(port: number, head: string[], waitMs = 10_000): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, waitMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received.split('\r\n')[0]);
      }
    });
    socket.on('error', reject);
    socket.write([...head, 'content-type: application/json', 'content-length: 1000000', '', ''].join('\r\n'));
  });
}

describe('failed authentication is limited per address, and never refuses a valid key', () => {
  let t: TestApp;
  afterEach(() => t?.close());

  it('serves a valid key after 50 failed attempts from its address, while an invalid one gets 429', async () => {
    t = await startTestApp({ env: limits(20), rateLimiter: new MemoryRateLimiter() });
    const tenant = await createTenant(t);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await t.http.get('/v0/brands').set('x-api-key', unknownKey(i))).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(30).fill(429));

    const valid = await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
    expect(valid.status).toBe(200);
    expect(valid.headers['ratelimit-remaining']).toBe('999');

    for (const key of [unknownKey(99), 'not-even-a-key', undefined]) {
      const req = t.http.get('/v0/brands');
      const limited = await (key ? req.set('x-api-key', key) : req);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        code: 'RATE_LIMITED',
        message: expect.any(String),
        requestId: limited.headers['x-request-id'],
        details: { retryAfterSeconds: Number(limited.headers['retry-after']), retryAt: expect.any(String) },
      });
    }
  });

  it('by default, never meets an honest suite checking its 401s, and still stops a burst of 300 unknown keys', async () => {
    const budget = loadConfig({}).rateLimit.authFailuresMax;
    t = await startTestApp({ env: limits(budget), rateLimiter: new MemoryRateLimiter() });
    const honest: number[] = [];
    for (let i = 0; i < 40; i++) honest.push((await t.http.get('/v0/brands').set('x-api-key', unknownKey(i))).status);
    expect(honest).toEqual(Array(40).fill(401));
    const burst: number[] = [];
    for (let i = 0; i < 300; i++) burst.push((await t.http.get('/v0/brands').set('x-api-key', unknownKey(1000 + i))).status);
    expect(burst.filter((s) => s === 429).length).toBeGreaterThanOrEqual(300 - (budget - 40) - 1);
  });
});

describe('what a key lookup costs, and where (decisions.md 182)', () => {
  let t: TestApp;
  let limiter: RedisRateLimiter | undefined;
  afterEach(async () => {
    await t?.close();
    limiter?.close();
  });

  it('looks no key up, nor counts it, outside /v0', async () => {
    t = await startTestApp({ env: limits(20), rateLimiter: new MemoryRateLimiter() });
    const tenant = await createTenant(t);
    for (const path of ['/health/live', '/health/ready', '/docs-json', '/nothing-here']) await t.http.get(path).set('x-api-key', tenant.apiKey);
    for (let i = 0; i < 30; i++) expect((await t.http.get('/health/live').set('x-api-key', unknownKey(i))).status).toBe(200);
    // Neither the key's budget nor the address's failures were counted.
    const res = await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
    expect([res.status, res.headers['ratelimit-remaining']]).toEqual([200, '999']);
    expect((await t.http.get('/v0/brands').set('x-api-key', unknownKey(99))).status).toBe(401);
  });

  it('refuses a key no process has seen from an address over its failure budget before PostgreSQL, and still serves one seen', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    limiter = await connectedLimiter('redis://127.0.0.1:6379', prefix);
    t = await startTestApp({ env: limits(20), rateLimiter: limiter, apiKeyCache: new RedisApiKeyCache(limiter.redis, prefix, new RedisSeal(randomBytes(32), 'api-key-cache')) });
    const seen = await createTenant(t);
    const unseen = await createTenant(t);
    expect((await t.http.get('/v0/brands').set('x-api-key', seen.apiKey)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await t.http.get('/v0/brands').set('x-api-key', unknownKey(i))).status);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect((await t.http.get('/v0/brands').set('x-api-key', seen.apiKey)).status).toBe(200);
    const refused = await t.http.get('/v0/brands').set('x-api-key', unseen.apiKey);
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
  });
});

describe('a request refused for its key or its address is refused before its body is read', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...limits(3), RATE_LIMIT_MAX: '2' }, rateLimiter: new MemoryRateLimiter() });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => t.close());

  it('answers 401, 429 for the address and 429 for the key without waiting for the body; a let-in request waits for it', async () => {
    const tenant = await createTenant(t);
    const post = (key: string) => ['POST /v0/brands HTTP/1.1', 'host: 127.0.0.1', `x-api-key: ${key}`];
    for (let i = 0; i < 3; i++) expect(await answerWithoutBody(port, post(unknownKey(i)))).toBe('HTTP/1.1 401 Unauthorized');
    expect(await answerWithoutBody(port, post(unknownKey(3)))).toBe('HTTP/1.1 429 Too Many Requests');

    // Within its budget, the valid key's request waits for the body it announced.
    expect(await answerWithoutBody(port, post(tenant.apiKey), 700)).toBeNull();
    expect(await answerWithoutBody(port, post(tenant.apiKey), 700)).toBeNull();
    expect(await answerWithoutBody(port, post(tenant.apiKey))).toBe('HTTP/1.1 429 Too Many Requests');
    expect(await rows(t, 'SELECT id FROM brands WHERE tenant_id = ?', [tenant.tenantId])).toHaveLength(0);
  });
});

describe('deeply nested bodies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const deep = '['.repeat(5000) + ']'.repeat(5000);

  it.each([
    ['without', {}],
    ['with', { 'Idempotency-Key': 'deep-body' }],
  ])('are a 400 on `body`, %s an Idempotency-Key, and write nothing', async (_label, headers) => {
    const tenant = await createTenant(t);
    // Written as text: JSON.stringify itself would overflow the stack on it.
    const body = `${JSON.stringify(brandBody()).slice(0, -1)},"extra":${deep}}`;
    expect(body.length).toBeGreaterThan(10_000);
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).set(headers).set('content-type', 'application/json').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.any(String),
      requestId: res.headers['x-request-id'],
      details: { field: 'body', reason: 'is nested deeper than 16 levels' },
    });
    expect(await rows(t, 'SELECT key FROM idempotency_keys WHERE tenant_id = ?', [tenant.tenantId])).toHaveLength(0);
    expect(await rows(t, 'SELECT id FROM brands WHERE tenant_id = ?', [tenant.tenantId])).toHaveLength(0);
  });

  it('are accepted up to 16 levels, where validation takes over and names the field', async () => {
    const tenant = await createTenant(t);
    const fourteen = JSON.parse('['.repeat(14) + ']'.repeat(14));
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send({ ...brandBody(), themeLight: { borderColor: fourteen } });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('themeLight.borderColor');
  });
});
