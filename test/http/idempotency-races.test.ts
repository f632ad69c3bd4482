import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { createOrmConfig } from '../../src/infrastructure/persistence/mikro-orm.config';
import { eventually } from '../support/eventually';
import { platform, rows } from '../support/platform';
import { testDatabaseUrl } from '../support/test-database-url';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// Issue 17: a request that outlives its hold on an Idempotency-Key must not complete over the
// retry that took the key over; and no statement may outlive a hold in the first place.

/** Holds every counter row of a page group, so page creations in it wait for the release. */
async function holdPageCreations(pageGroupId: string): Promise<{ release: () => Promise<void> }> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM page_group_counters WHERE page_group_id = $1 FOR UPDATE', [pageGroupId]);
  return {
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

const blockedOnCounters = (t: TestApp) =>
  rows<{ n: number }>(
    t,
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%UPDATE page_group_counters%'`,
  ).then((r) => r[0].n);
const keyRow = (t: TestApp, tenant: TestTenant, key: string) =>
  rows<{ owner: string; state: string; response_body: string | null }>(t, 'SELECT owner, state, response_body FROM idempotency_keys WHERE tenant_id = ? AND key = ?', [tenant.tenantId, key]).then((r) => r[0]);
const pagesIn = (t: TestApp, pageGroupId: string) => rows(t, 'SELECT id FROM pages WHERE page_group_id = ?', [pageGroupId]).then((r) => r.length);

describe('a request whose hold on its key was taken over by a retry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('rolls back and answers 409, while the retry creates the page once and keeps its response', async () => {
    const tenant = await createTenant(t);
    const group = await platform(t).group(tenant.tenantId);
    const send = () => t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).set('Idempotency-Key', 'takeover').send({});
    const lock = await holdPageCreations(group.pageGroupId);
    let first, retry;
    try {
      first = send().then((res) => res);
      const firstOwner = (await eventually(() => keyRow(t, tenant, 'takeover'), (row) => row?.state === 'in_progress')).owner;
      await eventually(() => blockedOnCounters(t), (n) => n >= 1);
      // The first request has now held the key past its hold, as one stuck for a minute would.
      await rows(t, `UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE tenant_id = ? AND key = 'takeover'`, [tenant.tenantId]);
      retry = send().then((res) => res);
      await eventually(() => keyRow(t, tenant, 'takeover'), (row) => row.owner !== firstOwner);
      await eventually(() => blockedOnCounters(t), (n) => n >= 2);
    } finally {
      await lock.release();
    }
    const [a, b] = await Promise.all([first, retry]);
    expect(a!.status).toBe(409);
    expect(a!.body).toMatchObject({ code: 'CONFLICT', details: { header: 'Idempotency-Key' } });
    expect(b!.status).toBe(201);
    expect(await pagesIn(t, group.pageGroupId)).toBe(1);
    expect((await keyRow(t, tenant, 'takeover')).state).toBe('completed');
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(b!.body);
    const events = await rows(t, `SELECT id FROM outbox_events WHERE tenant_id = ? AND type = 'page.version.created'`, [tenant.tenantId]);
    expect(events).toHaveLength(1);
  });
});

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
    const lock = await holdPageCreations(group.pageGroupId);
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
