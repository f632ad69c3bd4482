import { READINESS_FRESH_MS } from '../../src/infrastructure/persistence/connection/database-readiness.probe';
import { apiBehindProxy } from '../support/api-behind-proxy';
import { eventually } from '../support/eventually';
import { TcpProxy } from '../support/tcp-proxy';
import { createTenant, TestApp } from '../support/test-app';

// The API reaches PostgreSQL through a loopback proxy that the test stops and starts again.
let proxy: TcpProxy;
let t: TestApp;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, proxy, close } = await apiBehindProxy());
});
afterAll(() => close());

describe('database unreachable', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, then recovers when the database is back', async () => {
    const tenant = await createTenant(t);
    expect((await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey)).status).toBe(200);
    expect((await t.http.get('/health/ready')).status).toBe(200);

    const port = proxy.port;
    await proxy.stop();
    // Readiness answers from a probe at most READINESS_FRESH_MS old, so it turns within that.
    const ready = await eventually(() => t.http.get('/health/ready'), (res) => res.status !== 200, 10 * READINESS_FRESH_MS);
    for (const res of [await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey), ready]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String), requestId: res.headers['x-request-id'] });
    }
    expect((await t.http.get('/health/live')).status).toBe(200);

    await proxy.start(port);
    const back = await t.http.get('/v0/brands').set('x-api-key', tenant.apiKey);
    expect(back.status).toBe(200);
  });
});
