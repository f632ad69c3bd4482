import { request as httpRequest } from 'node:http';
import { brandBody } from '../support/builders/request-bodies';
import { ApiProcess } from '../support/api-process';
import { cli } from '../support/cli';

describe('the API process', () => {
  it('refuses to start on a bad setting, naming it', async () => {
    const api = new ApiProcess({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(await api.exited).toBe(1);
    expect(api.stderr.join('\n')).toMatch(/PORT must be .*LOG_LEVEL must be/);
  });

  it('logs where the API and the docs are, then on SIGTERM finishes the request in flight and exits 0', async () => {
    const tenant = await cli('tenant:create', '--name', 'Graceful', '--json');
    const key = await cli('api-key:create', '--tenant', tenant.json.tenantId, '--json');
    const api = new ApiProcess({ LOG_LEVEL: 'debug' });
    const base = await api.baseUrl();
    const listening = api.lines.find((l) => l.api);
    expect(listening.docs).toBe(`${base}/docs`);
    expect(listening.msg).toContain(`${base}/docs`);

    // A create whose body arrives in two parts, with SIGTERM in between.
    const body = Buffer.from(JSON.stringify(brandBody({ name: 'In flight' })));
    const url = new URL('/v0/brands', base);
    const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-api-key': key.json.apiKey } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, 20));
      api.waitFor((l) => l.msg?.startsWith('shutting down')).then(() => req.end(body.subarray(20)));
    });
    // SIGTERM once the server has the request (its headers) and waits for the rest of the body.
    await api.waitFor((l) => l.msg === 'request started' && l.method === 'POST');
    api.signal('SIGTERM');
    const res = await response;
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('In flight');
    expect(await api.exited).toBe(0);
    expect(api.lines.some((l) => l.msg === 'stopped')).toBe(true);
  });
});
