import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { AppModule } from '../../src/composition/api/app.module';
import { BrandQueries } from '../../src/application/brand/brand-queries.port';
import { loadConfig } from '../../src/infrastructure/config/app-config';
import { configureHttp } from '../../src/interfaces/http/configure-http';
import { requestContext } from '../../src/infrastructure/persistence/connection/request-context.middleware';
import { brandBody } from '../support/builders/request-bodies';
import { testLogger } from '../support/silent-logger';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t);
});
afterAll(() => t.close());

function expectErrorShape(res: request.Response, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.requestId).toMatch(/^req_[0-9a-z]{26}$/);
  expect(res.headers['x-request-id']).toBe(res.body.requestId);
  for (const key of Object.keys(res.body)) expect(['code', 'message', 'requestId', 'details']).toContain(key);
}

describe('error responses', () => {
  it('gives every response, success or error, a fresh x-request-id', async () => {
    const a = await t.http.get('/health/live');
    const b = await t.http.get('/health/live');
    expect(a.headers['x-request-id']).toMatch(/^req_[0-9a-z]{26}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('is a 404 NOT_FOUND for an unknown route, with or without a key', async () => {
    expectErrorShape(await t.http.get('/v0/nothing-here').set('x-api-key', tenant.apiKey), 404, 'NOT_FOUND');
    expectErrorShape(await t.http.get('/nothing'), 404, 'NOT_FOUND');
    expectErrorShape(await t.http.delete('/v0/brands/brand_01jdq8w9k1a2b3c4d5e6f7g8h9').set('x-api-key', tenant.apiKey), 404, 'NOT_FOUND');
  });

  it('is a 400 on `body` for malformed JSON', async () => {
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).set('content-type', 'application/json').send('{"name": "Acme",');
    expectErrorShape(res, 400, 'VALIDATION_ERROR');
    expect(res.body.details).toEqual({ field: 'body', reason: 'must be valid JSON' });
  });

  it.each([['[1,2]'], ['"text"'], ['null'], ['42']])('is a 400 on `body` for the JSON value %s', async (json) => {
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).set('content-type', 'application/json').send(json);
    expectErrorShape(res, 400, 'VALIDATION_ERROR');
    expect(res.body.details.field).toBe('body');
  });

  it('is a 413 PAYLOAD_TOO_LARGE over 1 MiB, and takes a body just under it', async () => {
    const big = JSON.stringify(brandBody({ name: 'x'.repeat(1024 * 1024) }));
    expectErrorShape(await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).set('content-type', 'application/json').send(big), 413, 'PAYLOAD_TOO_LARGE');
    const padded = JSON.stringify(brandBody()).replace(/}$/, `${' '.repeat(1024 * 1024 - 400)}}`);
    const ok = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).set('content-type', 'application/json').send(padded);
    expect(ok.status).toBe(201);
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x'], ['application/xml']])(
    'is a 415 UNSUPPORTED_MEDIA_TYPE for a %s body',
    async (type) => {
      const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).set('content-type', type).send('name=Acme');
      expectErrorShape(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    },
  );

  it('is a 415 for a body without Content-Type', async () => {
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).unset('content-type').send(Buffer.from('{"name":"Acme"}'));
    expectErrorShape(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts JSON with a charset and merge-patch+json', async () => {
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).set('content-type', 'application/json; charset=utf-8').send(JSON.stringify(brandBody()));
    expect(res.status).toBe(201);
  });

  it('treats a POST with no body as {} (and so names the first missing field)', async () => {
    const res = await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey);
    expectErrorShape(res, 400, 'VALIDATION_ERROR');
    expect(res.body.details.field).toBe('name');
  });
});

describe('unexpected errors', () => {
  it('are a 500 INTERNAL_ERROR with nothing internal in the body, logged with the request id', async () => {
    const lines: string[] = [];
    const logger = testLogger(lines);
    const config = loadConfig({ LOG_LEVEL: 'silent', SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config, orm: t.orm, logger })] })
      .overrideProvider(BrandQueries)
      .useValue({
        list: () => Promise.reject(new TypeError('SELECT secret_column FROM brands WHERE key_hash = lp_abc')),
        findById: () => Promise.reject(new Error('boom')),
      })
      .compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
    app.use(requestContext(t.orm));
    configureHttp(app, logger, { docsEnabled: false });
    await app.init();
    try {
      const res = await request(app.getHttpServer()).get('/v0/brands').set('x-api-key', tenant.apiKey);
      expectErrorShape(res, 500, 'INTERNAL_ERROR');
      expect(res.body.message).toBe('An unexpected error occurred.');
      expect(JSON.stringify(res.body)).not.toMatch(/SELECT|secret|TypeError|at /);
      const logged = lines.map((line) => JSON.parse(line)).find((line) => line.msg === 'unexpected error');
      expect(logged).toMatchObject({ requestId: res.body.requestId, err: { name: 'TypeError' } });
      expect(lines.join('\n')).not.toContain(tenant.apiKey);
    } finally {
      await app.close();
    }
  });
});
