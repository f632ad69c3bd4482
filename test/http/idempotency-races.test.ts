import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { holdPageCreations } from '../support/page-creation-lock';
import { platform, rows } from '../support/platform';
import { testDatabaseUrl } from '../support/test-database-url';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// A statement cut short by DATABASE_STATEMENT_TIMEOUT_MS answers 503 and ends the request's
// transaction, and with it the hold on its Idempotency-Key: the retry runs at once.

const keyRow = (t: TestApp, tenant: TestTenant, key: string) =>
  rows<{ response_status: number }>(t, 'SELECT response_status FROM idempotency_keys WHERE tenant_id = ? AND key = ?', [tenant.tenantId, key]).then((r) => r[0]);
const pagesIn = (t: TestApp, pageGroupId: string) => rows(t, 'SELECT id FROM pages WHERE page_group_id = ?', [pageGroupId]).then((r) => r.length);

describe('a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS', () => {
  let orm: MikroORM;
  let t: TestApp;
  beforeAll(async () => {
    orm = await MikroORM.init(createOrmConfig(testDatabaseUrl(), 4, 300));
    t = await startTestApp({ orm });
  });
  afterAll(async () => {
    await t.close();
    await orm.close(true);
  });

  it('is cancelled: 503 with Retry-After, nothing written, and the key is free for the retry', async () => {
    const tenant = await createTenant(t);
    const group = await platform(t).group(tenant.tenantId);
    const send = () => t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).set('Idempotency-Key', 'slow').send({});
    const lock = await holdPageCreations(t, group.pageGroupId);
    let cancelled;
    try {
      cancelled = await send();
    } finally {
      await lock.release();
    }
    expect(cancelled.status).toBe(503);
    expect(cancelled.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(cancelled.headers['retry-after']).toBeDefined();
    expect(await pagesIn(t, group.pageGroupId)).toBe(0);
    expect(await keyRow(t, tenant, 'slow')).toBeUndefined();

    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await pagesIn(t, group.pageGroupId)).toBe(1);
  });
});
