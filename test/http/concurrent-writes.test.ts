import { Client } from 'pg';
import { brandBody } from '../support/builders/request-bodies';
import { eventually } from '../support/eventually';
import { testDatabaseUrl } from '../support/test-database-url';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';
import { subscriptionBody } from '../support/builders/subscriptions';

// Two writes to one resource at the same time. A session of our own holds the row's lock while
// both requests arrive, so that both are certainly in flight together; then it lets go.
let t: TestApp;
let tenant: TestTenant;
let holder: Client;
// Watches the waiters from outside the holder's transaction, which would see one frozen snapshot
// of pg_stat_activity for as long as it lasts.
let observer: Client;
beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t);
  holder = new Client({ connectionString: testDatabaseUrl() });
  observer = new Client({ connectionString: testDatabaseUrl() });
  await Promise.all([holder.connect(), observer.connect()]);
});
afterAll(async () => {
  await Promise.all([holder.end(), observer.end()]);
  await t.close();
});

/** Runs `requests` while `holder` has the row locked; lets go once all of them wait on it. */
async function whileLocked<T>(table: string, id: string, requests: Array<() => Promise<T>>): Promise<T[]> {
  await holder.query('BEGIN');
  await holder.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
  const pid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const started: Promise<T>[] = [];
  for (const request of requests) {
    started.push(request());
    // In order: each request is queued on the lock before the next one is sent.
    await eventually(() => blockedBy(pid), (n) => n === started.length);
  }
  await holder.query('COMMIT');
  return Promise.all(started);
}

/** How many sessions wait, directly or behind another waiter, on the session `pid`. */
async function blockedBy(pid: number): Promise<number> {
  const { rows } = await observer.query(
    `WITH RECURSIVE chain(pid) AS (SELECT $1::int UNION SELECT a.pid FROM pg_stat_activity a JOIN chain c ON c.pid = ANY (pg_blocking_pids(a.pid)))
     SELECT count(*)::int - 1 AS n FROM chain`,
    [pid],
  );
  return rows[0].n;
}

describe('concurrent writes to one resource', () => {
  it('two PATCHes of different theme fields of one brand both land, and updatedAt moves twice', async () => {
    const brand = (await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody())).body;
    const patch = (body: object) => () => t.http.patch(`/v0/brands/${brand.brandId}`).set('x-api-key', tenant.apiKey).send(body).then((r) => r);
    const [first, second] = await whileLocked('brands', brand.brandId, [patch({ themeDark: { borderColor: '#111111' } }), patch({ themeDark: { mutedTextColor: '#222222' } })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const stored = (await t.http.get(`/v0/brands/${brand.brandId}`).set('x-api-key', tenant.apiKey)).body;
    expect(stored.themeDark).toMatchObject({ borderColor: '#111111', mutedTextColor: '#222222' });
    expect(first.body.updatedAt < second.body.updatedAt || second.body.updatedAt < first.body.updatedAt).toBe(true);
  });

  it('a PATCH merges into the brand as another process left it, not into the copy this process kept', async () => {
    const brand = (await t.http.post('/v0/brands').set('x-api-key', tenant.apiKey).send(brandBody())).body;
    const patchOn = (app: TestApp, body: object) => app.http.patch(`/v0/brands/${brand.brandId}`).set('x-api-key', tenant.apiKey).send(body);
    // This process now knows the brand as it wrote it (and again after this PATCH).
    expect((await patchOn(t, { themeDark: { borderColor: '#111111' } })).status).toBe(200);
    // Another API process, with copies of its own, renames it.
    const other = await startTestApp();
    try {
      const renamed = await patchOn(other, { name: 'Renamed elsewhere' });
      expect(renamed.status).toBe(200);
      const mine = await patchOn(t, { themeDark: { mutedTextColor: '#222222' } });
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({ name: 'Renamed elsewhere', themeDark: { borderColor: '#111111', mutedTextColor: '#222222' } });
      expect(mine.body.updatedAt > renamed.body.updatedAt).toBe(true);
      const stored = (await t.http.get(`/v0/brands/${brand.brandId}`).set('x-api-key', tenant.apiKey)).body;
      expect(stored).toEqual(mine.body);
      // One brand.updated per PATCH, each with the brand as answered.
      const { rows } = await observer.query(
        `SELECT body FROM outbox_events WHERE tenant_id = $1 AND type = 'brand.updated' AND body::json->'data'->>'brandId' = $2 ORDER BY id`,
        [tenant.tenantId, brand.brandId],
      );
      expect(rows.map((r) => JSON.parse(r.body).data.name)).toEqual([brand.name, 'Renamed elsewhere', 'Renamed elsewhere']);
      expect(JSON.parse(rows[rows.length - 1].body).data).toEqual(mine.body);
    } finally {
      await other.close();
    }
  });

  it('a PATCH that waited behind the DELETE of its webhook subscription is a 404 and does not bring it back', async () => {
    const created = await t.http
      .post('/v0/webhook_subscriptions')
      .set('x-api-key', tenant.apiKey)
      .send(subscriptionBody('http://127.0.0.1:9/hooks'));
    const id = created.body.id;
    const [deleted, patched] = await whileLocked('webhook_subscriptions', id, [
      () => t.http.delete(`/v0/webhook_subscriptions/${id}`).set('x-api-key', tenant.apiKey).then((r) => r),
      () => t.http.patch(`/v0/webhook_subscriptions/${id}`).set('x-api-key', tenant.apiKey).send({ url: 'http://127.0.0.1:9/other' }).then((r) => r),
    ]);
    expect(deleted.status).toBe(204);
    expect(patched.status).toBe(404);
    expect((await t.http.get(`/v0/webhook_subscriptions/${id}`).set('x-api-key', tenant.apiKey)).status).toBe(404);
  });
});
