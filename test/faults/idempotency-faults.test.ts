import { ApiProcess } from '../support/api-process';
import { apiBehindProxy } from '../support/api-behind-proxy';
import { eventually } from '../support/eventually';
import { holdPageCreations } from '../support/page-creation-lock';
import { platform, rows } from '../support/platform';
import { TcpProxy } from '../support/tcp-proxy';
import { createTenant, startTestApp, TestApp, TestTenant } from '../support/test-app';

// Issue 27, item 8: an Idempotency-Key is held by its request's transaction only, so a real fault
// (a database cut, a kill -9) ends the hold with the request: the retry runs or replays at once,
// and no fault makes a change twice.

const pagesIn = (t: TestApp, pageGroupId: string) => rows<{ n: number }>(t, 'SELECT count(*)::int AS n FROM pages WHERE page_group_id = ?', [pageGroupId]).then((r) => r[0].n);

describe('a database cut during a keyed POST', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let close: () => Promise<void>;
  let direct: TestApp;
  beforeAll(async () => {
    ({ t, proxy, close } = await apiBehindProxy());
    direct = await startTestApp();
  });
  afterAll(async () => {
    await close();
    await direct.close();
  });

  it('answers 503, and the retry with the key right after the database is back gets 201 and makes exactly one page', async () => {
    const tenant = await createTenant(direct);
    const group = await platform(direct).group(tenant.tenantId);
    const send = () => t.http.post(`/v0/page_groups/${group.pageGroupId}/pages`).set('x-api-key', tenant.apiKey).set('Idempotency-Key', 'through-a-cut').send({});
    // The POST is in flight inside PostgreSQL (waiting for the group's counter rows) when the
    // connection is cut.
    const lock = await holdPageCreations(direct, group.pageGroupId);
    let sessionEndedMs: number;
    try {
      const first = send().then((res) => res);
      await eventually(() => lock.blocked(), (n) => n === 1);
      const port = proxy.port;
      const cutAt = Date.now();
      await proxy.stop();
      expect((await first).status).toBe(503);
      // PostgreSQL ends the cut session (client_connection_check_interval), and with it the
      // transaction that held the key; the database stays away until then, as a cut would.
      await eventually(() => lock.blocked(), (n) => n === 0);
      sessionEndedMs = Date.now() - cutAt;
      await proxy.start(port);
    } finally {
      await lock.release();
    }
    const backAt = Date.now();
    const retry = await send();
    const retryMs = Date.now() - backAt;
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    process.stdout.write(`idempotency: cut during a keyed POST: 503; the cut session ended ${sessionEndedMs} ms after the cut; the retry sent as the database came back answered 201 in ${retryMs} ms\n`);
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(retry.body);
    expect(await pagesIn(direct, group.pageGroupId)).toBe(1);
  });
});

describe('kill -9 of the API during keyed POSTs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const post = async (base: string, tenant: TestTenant, groupId: string, key: string) => {
    const res = await fetch(`${base}/v0/page_groups/${groupId}/pages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey, 'idempotency-key': key },
      body: '{}',
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', body: (await res.json()) as { pageId: string } };
  };

  it('makes each change exactly once: after the restart every retry answers 201 (new or replayed), never 409', async () => {
    const tenant = await createTenant(t);
    const done = await platform(t).group(tenant.tenantId);
    const held = await platform(t).group(tenant.tenantId);
    const first = new ApiProcess();
    const base = await first.baseUrl();
    // Eight creations answered before the kill, eight in flight in PostgreSQL when it comes.
    const answered = await Promise.all(Array.from({ length: 8 }, (_, i) => post(base, tenant, done.pageGroupId, `done-${i}`)));
    expect(answered.map((r) => r.status)).toEqual(Array(8).fill(201));
    const lock = await holdPageCreations(t, held.pageGroupId);
    let second: ApiProcess | undefined;
    try {
      const inFlight = Array.from({ length: 8 }, (_, i) => post(base, tenant, held.pageGroupId, `held-${i}`).catch(() => 'no answer' as const));
      await eventually(() => lock.blocked(), (n) => n === 8);
      first.signal('SIGKILL');
      const killedAt = Date.now();
      await first.exited;
      expect(await Promise.all(inFlight)).toEqual(Array(8).fill('no answer'));
      // PostgreSQL ends the killed process's sessions within client_connection_check_interval.
      await eventually(() => lock.blocked(), (n) => n === 0);
      const sessionsEndedMs = Date.now() - killedAt;
      await lock.release();

      second = new ApiProcess();
      const restarted = await second.baseUrl();
      const retries = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) => post(restarted, tenant, done.pageGroupId, `done-${i}`)),
        ...Array.from({ length: 8 }, (_, i) => post(restarted, tenant, held.pageGroupId, `held-${i}`)),
      ]);
      expect(retries.map((r) => r.status)).toEqual(Array(16).fill(201));
      // The answered ones replay their first answer; the killed ones run now, once.
      expect(retries.slice(0, 8).map((r) => r.replayed)).toEqual(Array(8).fill(true));
      expect(retries.slice(0, 8).map((r) => r.body.pageId)).toEqual(answered.map((r) => r.body.pageId));
      expect(retries.slice(8).map((r) => r.replayed)).toEqual(Array(8).fill(false));
      process.stdout.write(`idempotency: kill -9 with 8 keyed POSTs in flight: their sessions ended ${sessionsEndedMs} ms after the kill; after the restart 16 retries: 8 replayed, 8 created, 0 refused\n`);
    } finally {
      await lock.release().catch(() => {});
      await second?.stop();
    }
    expect(await pagesIn(t, done.pageGroupId)).toBe(8);
    expect(await pagesIn(t, held.pageGroupId)).toBe(8);
  });
});
