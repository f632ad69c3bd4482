import { MikroORM } from '@mikro-orm/postgresql';
import { newTypeId } from '../../src/domain/shared/type-id';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { SqlDeliveryRequests } from '../../src/infrastructure/persistence/webhooks/sql-delivery-requests.store';
import { outboxRelay } from '../support/outbox-relay';
import { testDatabaseUrl } from '../support/test-database-url';
import { inUnitOfWork, sqlIn } from '../support/database';
import { TestDelivery } from '../../src/domain/webhook/test-delivery';

// What redelivery and recovery pick, on deliveries written in every state directly (no worker
// runs on them): which are sent again, which are left alone, and that the original is untouched.
let orm: MikroORM;
beforeAll(async () => {
  orm = await MikroORM.init(createOrmConfig(testDatabaseUrl(), 4));
});
afterAll(() => orm.close(true));

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sqlIn<T>(orm, text, params);
/** The store's methods, each in a unit of work of its own as the use cases call them. */
const requests = () => {
  const store = new SqlDeliveryRequests(orm.em);
  return {
    redeliver: (input: Parameters<SqlDeliveryRequests['redeliver']>[0]) => inUnitOfWork(orm, () => store.redeliver(input)),
    recover: (input: Parameters<SqlDeliveryRequests['recover']>[0]) => inUnitOfWork(orm, () => store.recover(input)),
    addTest: (delivery: TestDelivery, pendingMax: number) => inUnitOfWork(orm, () => store.addTest(delivery, pendingMax)),
  };
};
const NOW = new Date();
/** Room enough for every manual delivery these tests make, but for the bound's own tests. */
const ROOM = 10_000;
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

async function subscription(): Promise<{ tenantId: string; subscriptionId: string }> {
  const [tenantId, subscriptionId] = [newTypeId('tenant'), newTypeId('whsub')];
  await sql(`INSERT INTO tenants (id, name, created_at) VALUES (?, 't', now())`, [tenantId]);
  await sql(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
     VALUES (?, ?, 'http://127.0.0.1:9/hooks', '{page.version.created}', true, 'x', now(), now())`,
    [subscriptionId, tenantId],
  );
  return { tenantId, subscriptionId };
}

/** A scheduled delivery in the given state, created `minutesAgo`; its event too. */
async function delivery(
  s: { tenantId: string; subscriptionId: string },
  state: { status: string; attempts: number; minutesAgo?: number; lockedFor?: number; redeliveryOf?: string },
): Promise<string> {
  const [eventId, id] = [newTypeId('evt'), newTypeId('whdlv')];
  await sql(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at) VALUES (?, ?, 'page.version.created', '{}', now(), now())`, [eventId, s.tenantId]);
  const created = ago(state.minutesAgo ?? 10);
  await sql(
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, locked_until, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, ?, 'page.version.created', ?, ?, ?, ?, ?, ?, ?)`,
    [
      id, s.tenantId, s.subscriptionId, eventId, state.status, state.attempts,
      state.status === 'pending' ? new Date(NOW.getTime() + 3_600_000) : null,
      state.lockedFor ? new Date(NOW.getTime() + state.lockedFor) : null,
      created, created, state.status === 'pending' ? null : created,
    ],
  );
  return id;
}

const row = async (id: string) =>
  (await sql<{ status: string; attempt_count: number; next_attempt_at: Date | null; manual_id: string | null; redelivery_of: string | null; enqueued_at: Date | null }>(
    'SELECT status, attempt_count, next_attempt_at, manual_id, redelivery_of, enqueued_at FROM webhook_deliveries WHERE id = ?',
    [id],
  ))[0];
const redeliveriesOf = async (id: string) => (await sql<{ id: string; status: string }>('SELECT id, status FROM webhook_deliveries WHERE redelivery_of = ? ORDER BY id', [id]));

describe('redelivering one delivery', () => {
  it('adds a manual delivery of the same event and leaves the original and its schedule as they were', async () => {
    const s = await subscription();
    const id = await delivery(s, { status: 'pending', attempts: 2 });
    const before = await row(id);
    const made = await requests().redeliver({ ...s, deliveryId: id, now: NOW, pendingMax: ROOM });
    expect(made).toMatchObject({ deliveryId: expect.stringMatching(/^whdlv_/), redeliveryOf: id });
    expect(await row(id)).toEqual(before);
    const manual = await row((made as { deliveryId: string }).deliveryId);
    expect(manual).toMatchObject({ status: 'pending', attempt_count: 0, manual_id: (made as { deliveryId: string }).deliveryId, redelivery_of: id, enqueued_at: null });
  });

  it('answers in-flight while an attempt holds a live lease, or while a redelivery of it waits', async () => {
    const s = await subscription();
    const sending = await delivery(s, { status: 'pending', attempts: 1, lockedFor: 60_000 });
    expect(await requests().redeliver({ ...s, deliveryId: sending, now: NOW, pendingMax: ROOM })).toBe('in-flight');
    const failed = await delivery(s, { status: 'failed', attempts: 3 });
    const first = (await requests().redeliver({ ...s, deliveryId: failed, now: NOW, pendingMax: ROOM })) as { deliveryId: string };
    expect(await requests().redeliver({ ...s, deliveryId: failed, now: NOW, pendingMax: ROOM })).toBe('in-flight');
    // Asking through the redelivery's id is asking for its original.
    expect(await requests().redeliver({ ...s, deliveryId: first.deliveryId, now: NOW, pendingMax: ROOM })).toBe('in-flight');
    await sql(`UPDATE webhook_deliveries SET status = 'failed', finished_at = now() WHERE id = ?`, [first.deliveryId]);
    expect(await requests().redeliver({ ...s, deliveryId: first.deliveryId, now: NOW, pendingMax: ROOM })).toMatchObject({ redeliveryOf: failed });
  });

  it('of ten at once, queues one', async () => {
    const s = await subscription();
    const id = await delivery(s, { status: 'delivered', attempts: 1 });
    const results = await Promise.all(Array.from({ length: 10 }, () => requests().redeliver({ ...s, deliveryId: id, now: NOW, pendingMax: ROOM })));
    expect(results.filter((r) => r === 'in-flight')).toHaveLength(9);
    expect(await redeliveriesOf(id)).toHaveLength(1);
  });

  it('finds nothing under another subscription or tenant', async () => {
    const s = await subscription();
    const other = await subscription();
    const id = await delivery(s, { status: 'failed', attempts: 1 });
    expect(await requests().redeliver({ ...other, deliveryId: id, now: NOW, pendingMax: ROOM })).toBe('not-found');
    expect(await requests().redeliver({ tenantId: s.tenantId, subscriptionId: other.subscriptionId, deliveryId: id, now: NOW, pendingMax: ROOM })).toBe('not-found');
    expect(await redeliveriesOf(id)).toEqual([]);
  });
});

describe('recovering a subscription', () => {
  it('redelivers what failed or is being retried since the time, oldest first, and nothing else', async () => {
    const s = await subscription();
    const exhausted = await delivery(s, { status: 'failed', attempts: 5, minutesAgo: 30 });
    const retrying = await delivery(s, { status: 'pending', attempts: 2, minutesAgo: 20 });
    const redeliveredOk = await delivery(s, { status: 'failed', attempts: 5, minutesAgo: 15 });
    const redeliveredFailed = await delivery(s, { status: 'failed', attempts: 5, minutesAgo: 12 });
    for (const [id, status] of [[redeliveredOk, 'delivered'], [redeliveredFailed, 'failed']]) {
      const made = (await requests().redeliver({ ...s, deliveryId: id, now: NOW, pendingMax: ROOM })) as { deliveryId: string };
      await sql(`UPDATE webhook_deliveries SET status = ?, finished_at = now() WHERE id = ?`, [status, made.deliveryId]);
    }
    const untouched = [
      await delivery(s, { status: 'delivered', attempts: 1 }),
      await delivery(s, { status: 'cancelled', attempts: 0 }),
      await delivery(s, { status: 'pending', attempts: 0 }), // not tried yet
      await delivery(s, { status: 'pending', attempts: 1, lockedFor: 60_000 }), // in flight
      await delivery(s, { status: 'failed', attempts: 5, minutesAgo: 120 }), // before `since`
    ];
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, pendingMax: ROOM, limit: 100 })).toEqual({ queued: 3, hasMore: false });
    for (const id of [exhausted, retrying, redeliveredFailed]) expect((await redeliveriesOf(id)).filter((r) => r.status === 'pending')).toHaveLength(1);
    expect(await redeliveriesOf(redeliveredOk)).toHaveLength(1);
    for (const id of untouched) expect(await redeliveriesOf(id)).toEqual([]);
    // Asked again at once: those are waiting now.
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, pendingMax: ROOM, limit: 100 })).toEqual({ queued: 0, hasMore: false });
  });

  it('queues at most the limit, oldest first, and says more remain', async () => {
    const s = await subscription();
    const ids = [];
    for (let i = 5; i > 0; i--) ids.push(await delivery(s, { status: 'failed', attempts: 5, minutesAgo: i }));
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, pendingMax: ROOM, limit: 3 })).toEqual({ queued: 3, hasMore: true });
    expect((await Promise.all(ids.map(redeliveriesOf))).map((r) => r.length)).toEqual([1, 1, 1, 0, 0]);
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, pendingMax: ROOM, limit: 3 })).toEqual({ queued: 2, hasMore: false });
  });

  it('two recoveries at once queue each delivery once', async () => {
    const s = await subscription();
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await delivery(s, { status: 'failed', attempts: 5 }));
    const results = await Promise.all([1, 2, 3].map(() => requests().recover({ ...s, since: ago(60), now: NOW, pendingMax: ROOM, limit: 100 })));
    expect(results.reduce((sum, r) => sum + r.queued, 0)).toBe(20);
    for (const id of ids) expect(await redeliveriesOf(id)).toHaveLength(1);
  });
});

describe('a key that may receive some kinds only (decisions.md 178)', () => {
  it('recovers only the deliveries of kinds it may receive, and refuses to redeliver another kind, writing nothing', async () => {
    const s = await subscription();
    const page = await delivery(s, { status: 'failed', attempts: 5, minutesAgo: 5 });
    const brand = await delivery(s, { status: 'failed', attempts: 5, minutesAgo: 4 });
    await sql(`UPDATE webhook_deliveries SET event_type = 'brand.created' WHERE id = ?`, [brand]);
    const pagesOnly = ['page.version.created', 'webhook.test'];
    expect(await requests().redeliver({ ...s, deliveryId: brand, now: NOW, pendingMax: ROOM, receivable: pagesOnly })).toEqual({ notReceivable: 'brand.created' });
    expect(await redeliveriesOf(brand)).toEqual([]);
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, pendingMax: ROOM, limit: 100, receivable: pagesOnly })).toEqual({ queued: 1, hasMore: false });
    expect((await redeliveriesOf(page)).length).toBe(1);
    expect(await redeliveriesOf(brand)).toEqual([]);
    // Every kind (a full key, or events:read): the brand's delivery too.
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, pendingMax: ROOM, limit: 100, receivable: null })).toEqual({ queued: 1, hasMore: false });
    expect((await redeliveriesOf(brand)).length).toBe(1);
  });
});

describe('the tenant’s bound on manual deliveries waiting (WEBHOOK_MANUAL_PENDING_MAX)', () => {
  const waiting = async (tenantId: string) =>
    (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = ? AND manual_id IS NOT NULL AND status IN ('pending', 'sending')`, [tenantId]))[0].n;

  it('recover queues up to the room left and says the rest waits; redeliver and test then find no room, and write nothing', async () => {
    const s = await subscription();
    const ids = [];
    for (let i = 8; i > 0; i--) ids.push(await delivery(s, { status: 'failed', attempts: 5, minutesAgo: i }));
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, limit: 100, pendingMax: 5 })).toEqual({ queued: 5, hasMore: true });
    expect(await waiting(s.tenantId)).toBe(5);
    // The bound is per tenant, across its subscriptions.
    const other = await delivery(s, { status: 'failed', attempts: 5 });
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, limit: 100, pendingMax: 5 })).toEqual({ queued: 0, hasMore: true });
    expect(await requests().redeliver({ ...s, deliveryId: other, now: NOW, pendingMax: 5 })).toBe('no-room');
    const test = TestDelivery.to(s, NOW);
    expect(await requests().addTest(test, 5)).toBe('no-room');
    expect(await sql('SELECT id FROM outbox_events WHERE id = ?', [test.eventId])).toEqual([]);
    expect(await waiting(s.tenantId)).toBe(5);
    // Another tenant's room is its own.
    const t2 = await subscription();
    const theirs = await delivery(t2, { status: 'failed', attempts: 5 });
    expect(await requests().redeliver({ ...t2, deliveryId: theirs, now: NOW, pendingMax: 5 })).toMatchObject({ redeliveryOf: theirs });
    // Two are sent (one delivered, one failed): room for two more, and the rest after that.
    const sent = await sql<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE tenant_id = ? AND manual_id IS NOT NULL ORDER BY id LIMIT 2`, [s.tenantId]);
    await sql(`UPDATE webhook_deliveries SET status = CASE WHEN id = ? THEN 'delivered' ELSE 'failed' END, finished_at = now() WHERE id IN (?, ?)`, [sent[0].id, sent[0].id, sent[1].id]);
    expect(await requests().recover({ ...s, since: ago(60), now: NOW, limit: 100, pendingMax: 5 })).toEqual({ queued: 2, hasMore: true });
    expect(await waiting(s.tenantId)).toBe(5);
  });

  it('of twenty redeliveries at once with room for three, queues three', async () => {
    const s = await subscription();
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await delivery(s, { status: 'failed', attempts: 5 }));
    const results = await Promise.all(ids.map((id) => requests().redeliver({ ...s, deliveryId: id, now: NOW, pendingMax: 3 })));
    expect(results.filter((r) => r === 'no-room')).toHaveLength(17);
    expect(await waiting(s.tenantId)).toBe(3);
  });
});

describe('handing requests to the queue', () => {
  it('the relay takes each manual delivery once, and marks it handed over', async () => {
    const s = await subscription();
    const id = await delivery(s, { status: 'failed', attempts: 5 });
    const made = (await requests().redeliver({ ...s, deliveryId: id, now: NOW, pendingMax: ROOM })) as { deliveryId: string };
    const relay = outboxRelay(orm);
    const taken = (await Promise.all([relay.takeRequested(10_000, NOW), relay.takeRequested(10_000, NOW)])).flat().filter((job) => job.deliveryId === made.deliveryId);
    expect(taken).toEqual([{ deliveryId: made.deliveryId, eventId: expect.stringMatching(/^evt_/), attempt: 1, delayMs: 0, tenantId: s.tenantId, endpoint: expect.any(String) }]);
    expect((await row(made.deliveryId)).enqueued_at).not.toBeNull();
  });
});
