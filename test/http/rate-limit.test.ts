import { randomBytes } from 'node:crypto';
import { MemoryRateLimiter } from '../../src/infrastructure/rate-limit/memory-rate-limiter';
import { connectedLimiter } from '../support/redis-limiter';
import { RedisRateLimiter } from '../../src/infrastructure/rate-limit/redis-rate-limiter';
import { freePort } from '../support/ports';
import { ServiceProcess } from '../support/service-process';
import { cli } from '../support/cli';
import { testLogger } from '../support/silent-logger';
import { createTenant, startTestApp } from '../support/test-app';
import { brandBody } from '../support/builders/request-bodies';

// Windows are aligned to the clock: a day-long one keeps a window edge out of a test's few
// seconds (as in auth-limits.test.ts); with 60 s ones, an edge among a test's requests reset its count.
const WINDOW_SECONDS = 86_400;
const limits = (max: number, authFailures = 1000) => ({ RATE_LIMIT_MAX: String(max), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS), RATE_LIMIT_AUTH_FAILURES_MAX: String(authFailures) });

describe('rate limiting per API key', () => {
  it('puts RateLimit-* on every authenticated response and answers 429 with Retry-After past the budget', async () => {
    const t = await startTestApp({ env: limits(3), rateLimiter: new MemoryRateLimiter() });
    try {
      const tenant = await createTenant(t);
      const seen: number[] = [];
      for (const path of ['/v0/brands', '/v0/brands/brand_01jdq8w9k1a2b3c4d5e6f7g8h9', '/v0/brands?limit=0']) {
        const res = await t.http.get(path).set('x-api-key', tenant.apiKey);
        expect(res.headers['ratelimit-limit']).toBe('3');
        const reset = Number(res.headers['ratelimit-reset']);
        expect(reset).toBeGreaterThan(0);
        expect(reset).toBeLessThanOrEqual(WINDOW_SECONDS);
        seen.push(Number(res.headers['ratelimit-remaining']));
      }
      expect(seen).toEqual([2, 1, 0]);
      const limited = await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      expect(limited.body).toEqual({
        code: 'RATE_LIMITED',
        message: expect.any(String),
        requestId: limited.headers['x-request-id'],
        details: { retryAfterSeconds: retryAfter, retryAt: expect.any(String) },
      });
      const retryAt = new Date(limited.body.details.retryAt).getTime();
      expect(Math.abs(retryAt - (Date.now() + retryAfter * 1000))).toBeLessThan(2000);
      // Another key has its own budget.
      const other = await createTenant(t);
      expect((await t.http.get('/v0/brands').set('x-api-key', other.apiKey)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('counts conditional reads: 304s cost half a request, so a key polling with If-None-Match (its ETag, or *) meets its limit', async () => {
    const t = await startTestApp({ env: limits(20) });
    try {
      const tenant = await createTenant(t);
      const brand = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody());
      const path = `/v0/brands/${brand.body.brandId}`;
      const tag = (await t.http.get(path).set('x-api-key', tenant.apiKey)).headers.etag;
      const statuses: number[] = [];
      for (const condition of [tag, '*']) {
        for (let i = 0; i < 30; i++) statuses.push((await t.http.get(path).set('x-api-key', tenant.apiKey).set('If-None-Match', condition)).status);
      }
      // 18 requests left after the POST and the GET: at most 36 304s (refunds land a few ms
      // after their 304, so a 429 may come a little sooner), more than 18 (cheaper than a 200), then 429s.
      const notModified = statuses.filter((s) => s === 304).length;
      expect(notModified).toBeGreaterThan(18);
      expect(notModified).toBeLessThanOrEqual(36);
      expect(statuses.filter((s) => s === 429)).toHaveLength(60 - notModified);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('fails open when Redis cannot be reached: requests are served, and it is logged', async () => {
    const port = await freePort();
    const limiter = new RedisRateLimiter(`redis://127.0.0.1:${port}`, 'lp:');
    const lines: string[] = [];
    const t = await startTestApp({ env: limits(1), rateLimiter: limiter, logger: testLogger(lines) });
    try {
      const tenant = await createTenant(t);
      for (let i = 0; i < 3; i++) {
        const res = await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
        expect(res.status).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
      expect(limiter.failures).toBeGreaterThanOrEqual(3);
      expect(lines.some((l) => l.includes('rate-limit store unreachable'))).toBe(true);
      const ready = await t.http.get('/health/ready');
      expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'unavailable' }, historyDaysAhead: expect.any(Number) });
    } finally {
      await t.close();
      limiter.close();
    }
  });

  it('shares one budget between two API processes on the same Redis', async () => {
    const tenant = (await cli('tenant:create', '--name', 'Two processes', '--json')).json.tenantId;
    const key = (await cli('api-key:create', '--tenant', tenant, '--json')).json.apiKey;
    const env = { ...limits(6), REDIS_URL: 'redis://127.0.0.1:6379', LOG_LEVEL: 'info' };
    const a = new ServiceProcess(env);
    const b = new ServiceProcess(env);
    try {
      const [baseA, baseB] = await Promise.all([a.baseUrl(), b.baseUrl()]);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await fetch(`${i % 2 === 0 ? baseA : baseB}/v0/brands`, { headers: { 'x-api-key': key } });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    } finally {
      a.signal('SIGTERM');
      b.signal('SIGTERM');
      await Promise.all([a.exited, b.exited]);
    }
  });
});

describe('RedisRateLimiter', () => {
  it('counts in fixed windows shared by every client of the same Redis', async () => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const [one, two] = await Promise.all([connectedLimiter('redis://127.0.0.1:6379', prefix), connectedLimiter('redis://127.0.0.1:6379', prefix)]);
    try {
      const results = [await one.hit('k', 2, WINDOW_SECONDS * 1000), await two.hit('k', 2, WINDOW_SECONDS * 1000), await one.hit('k', 2, WINDOW_SECONDS * 1000)];
      expect(results.map((r) => [r!.allowed, r!.remaining])).toEqual([[true, 1], [true, 0], [false, 0]]);
      expect(await two.hit('fresh', 2, WINDOW_SECONDS * 1000)).toMatchObject({ allowed: true, remaining: 1 });
      // A refund (a 304) takes one count back in the window it was counted in.
      await two.refund('k', results[2]!.windowStart!);
      await two.refund('k', results[2]!.windowStart!);
      expect(await one.hit('k', 2, WINDOW_SECONDS * 1000)).toMatchObject({ allowed: true, remaining: 0 });
    } finally {
      one.close();
      two.close();
    }
  });
});
