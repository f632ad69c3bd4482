import { MikroORM } from '@mikro-orm/postgresql';
import { DeliveryJobData } from '../../src/application/webhook/delivery/delivery-job';
import { Random } from '../../src/application/webhook/delivery/random.port';
import { SubscriptionDeliveryState } from '../../src/application/webhook/delivery/subscription-delivery-state';
import { HeldPages } from '../../src/application/webhook/held/held-pages';
import { WakeHeldDeliveries } from '../../src/application/webhook/held/wake-held-deliveries.use-case';
import { WebhookSettings } from '../../src/application/webhook/delivery/webhook-settings.port';
import { newTypeId } from '../../src/domain/shared/type-id';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { DecryptedSecrets } from '../../src/infrastructure/crypto/decrypted-secrets';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { MikroOrmUnitOfWork } from '../../src/infrastructure/persistence/connection/mikro-orm-unit-of-work';
import { SqlWebhookSubscriptionRepository } from '../../src/infrastructure/persistence/repositories/sql-webhook-subscription.repository';
import { SqlDeliveryClaims } from '../../src/infrastructure/persistence/webhooks/sql-delivery-claims.store';
import { SqlHeldDeliveries } from '../../src/infrastructure/persistence/webhooks/sql-held-deliveries.store';
import { outboxRelay } from '../support/outbox-relay';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { BullmqFactory } from '../../src/infrastructure/queue/bullmq-factory';
import { BullmqDeliveryQueue, DELIVERY_QUEUE } from '../../src/infrastructure/queue/bullmq-delivery.queue';
import { FixedClock } from '../support/fakes/fixed-clock';
import { sqlIn } from '../support/database';
import { isolatedDatabase } from '../support/isolated-database';

// Held deliveries (issue 42, no storms), in PostgreSQL and a real queue: parked with no time, not
// taken by a job, woken per subscription by the worker's wake-up: one probe while the breaker is
// open, then pages once it closed. Whether a subscription wakes is its own state (the aggregate,
// saved through its repository: the one writer of the breaker's lease and the pages' spread).
let orm: MikroORM;
let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let queue: BullmqDeliveryQueue;
const prefix = `held-${process.pid}-${Date.now()}`;
const cipher = new SecretCipher(Buffer.alloc(32, 7));
const held = () => new SqlHeldDeliveries(orm);
const clock = new FixedClock(new Date());
const settings = new (class extends WebhookSettings {
  retrySchedule = [1000];
  attemptLockMs = 30_000;
  health = { breakerFailures: 10, disableAfterMs: 86_400_000, probeGapsMs: [1000] };
})();
const random = new (class extends Random {
  next() {
    return Math.random();
  }
})();
/** The worker's wake-up, on the real stores and queue (a new one: no cursor carried between tests). */
const waker = () => {
  const state = new SubscriptionDeliveryState(new SqlWebhookSubscriptionRepository(orm.em, cipher), new MikroOrmUnitOfWork(orm.em), settings);
  return new WakeHeldDeliveries(held(), new HeldPages(held(), queue, random), state, queue, clock, settings);
};
/** The attempts the queue holds for a subscription's deliveries, with each job's delay. */
async function queued(deliveryIds: string[]): Promise<{ deliveryId: string; attempt: number; delay: number; priority: number }[]> {
  const wanted = new Set(deliveryIds);
  const jobs = await queue.queue().getJobs(['waiting', 'delayed', 'prioritized']);
  return jobs.flatMap((job) =>
    ((job?.data as DeliveryJobData | undefined)?.attempts ?? []).filter((a) => wanted.has(a.deliveryId)).map((a) => ({ deliveryId: a.deliveryId, attempt: a.attempt, delay: job!.opts.delay ?? 0, priority: job!.opts.priority ?? 0 })),
  );
}
const subscriptionRow = async (id: string) => {
  const [row] = await sqlIn<{ breaker_probe_at: string | null; breaker_probe_delivery_id: string | null; held_release_at: string | null }>(
    orm, 'SELECT breaker_probe_at, breaker_probe_delivery_id, held_release_at FROM webhook_subscriptions WHERE id = ?', [id]);
  const at = (value: string | null) => (value === null ? null : new Date(value));
  return { breakerProbeAt: at(row.breaker_probe_at), probeId: row.breaker_probe_delivery_id, heldReleaseAt: at(row.held_release_at) };
};

beforeAll(async () => {
  // Its own database: the wake-up looks at every subscription holding deliveries.
  database = await isolatedDatabase();
  orm = await MikroORM.init(createOrmConfig(database.url, 4));
  queue = new BullmqDeliveryQueue(() => new BullmqFactory({ kind: 'redis', url: 'redis://127.0.0.1:6379' }, prefix).queue(DELIVERY_QUEUE));
});
afterAll(async () => {
  await queue.queue().obliterate({ force: true });
  await queue.close();
  await orm.close(true);
  await database.drop();
});
// Each test starts with nothing held in its database and nothing queued: the wake-up's counts are its own.
beforeEach(async () => {
  clock.advance(60_000);
  await sqlIn(orm, 'DELETE FROM webhook_deliveries');
  await queue.queue().obliterate({ force: true });
});

/** A subscription of a tenant of its own with `count` deliveries waiting, each of its own event. */
async function subscriptionWith(count: number, subscription: { breakerProbeAt?: Date | null; rate?: number | null } = {}) {
  const [tenantId, subscriptionId] = [newTypeId('tenant'), newTypeId('whsub')];
  await sqlIn(orm, `INSERT INTO tenants (id, name, created_at) VALUES (?, 't', now())`, [tenantId]);
  await sqlIn(
    orm,
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at, breaker_probe_at, consecutive_failures, rate_limit_per_second)
     VALUES (?, ?, 'http://127.0.0.1:9/hooks', '{page.version.created}', true, ?, now(), now(), ?, ?, ?)`,
    [subscriptionId, tenantId, cipher.encrypt('whsec_test'), subscription.breakerProbeAt ?? null, subscription.breakerProbeAt ? 10 : 0, subscription.rate ?? null],
  );
  const ids = Array.from({ length: count }, () => [newTypeId('evt'), newTypeId('whdlv')]);
  await sqlRows(
    orm.em.fork(),
    `WITH e AS (INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at)
                SELECT unnest($1::text[]), $2, 'page.version.created', '{}', now(), now())
     INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
     SELECT d, $2, $3, e, 'page.version.created', 'pending', 0, $5::timestamptz, now(), now() FROM unnest($1::text[], $4::text[]) AS x(e, d)`,
    [ids.map(([e]) => e), tenantId, subscriptionId, ids.map(([, d]) => d), new Date(clock.now().getTime() - 1000)],
  );
  return { tenantId, subscriptionId, deliveryIds: ids.map(([, d]) => d) };
}

const heldCount = async (subscriptionId: string) =>
  (await sqlIn<{ n: number }>(orm, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? AND status = 'pending' AND next_attempt_at IS NULL`, [subscriptionId]))[0].n;

describe('held deliveries', () => {
  it('are all held when the breaker opens, a job left for one then takes nothing, and nothing wakes before the probe is due', async () => {
    const s = await subscriptionWith(30, { breakerProbeAt: new Date(clock.now().getTime() + 60_000) });
    const now = clock.now();
    expect(await held().holdAll(s.subscriptionId, now, 1000)).toBe(30);
    expect(await heldCount(s.subscriptionId)).toBe(30);
    expect(await new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher)).claim({ deliveryId: s.deliveryIds[0] }, 1, now, 30_000)).toBeNull();
    expect(await waker().execute({ limit: 100 })).toEqual({ probes: 0, released: 0 });
    expect(await queued(s.deliveryIds)).toEqual([]);
  });

  it('wake one probe per subscription when it is due, once however many wake-ups run, and the probe is claimed as one', async () => {
    const s = await subscriptionWith(5, { breakerProbeAt: new Date(clock.now().getTime() - 1000) });
    const now = clock.now();
    await held().holdAll(s.subscriptionId, now, 1000);
    const woken = await Promise.all([waker().execute({ limit: 100 }), waker().execute({ limit: 100 }), waker().execute({ limit: 100 })]);
    expect(woken.map((w) => w.probes).reduce((a, b) => a + b)).toBe(1);
    // The newest held first (held before any attempt was made of it).
    expect(await queued(s.deliveryIds)).toEqual([{ deliveryId: s.deliveryIds[4], attempt: 1, delay: 0, priority: 0 }]);
    expect(await heldCount(s.subscriptionId)).toBe(4);
    // The lease and the probe are the subscription's, written through its repository.
    const lease = new Date(now.getTime() + settings.attemptLockMs);
    expect(await subscriptionRow(s.subscriptionId)).toMatchObject({ breakerProbeAt: lease, probeId: s.deliveryIds[4] });
    const claims = new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher));
    const claim = await claims.claim({ deliveryId: s.deliveryIds[4] }, 1, now, 30_000);
    expect(claim).toMatchObject({ probe: true, subscription: { nextProbeAt: lease } });
    // Leased: not woken again until the lease ends.
    expect((await waker().execute({ limit: 100 })).probes).toBe(0);
    // The probe failed and was held again; at the next probe another one goes: they take turns.
    await held().hold(claim!, now);
    clock.advance(settings.attemptLockMs + 1);
    expect((await waker().execute({ limit: 100 })).probes).toBe(1);
    expect((await queued(s.deliveryIds)).map((job) => job.deliveryId)).toContain(s.deliveryIds[3]);
  });

  it('go in pages of at most 1,000 once the breaker has closed, each page spread over a second, the next page after it', async () => {
    const s = await subscriptionWith(1500);
    const now = clock.now();
    await held().holdAll(s.subscriptionId, now, 10_000);
    const wake = waker();
    expect(await wake.execute({ limit: 100 })).toEqual({ probes: 0, released: 1000 });
    const first = await queued(s.deliveryIds);
    expect(first).toHaveLength(1000);
    expect(new Set(first.map((job) => job.deliveryId)).size).toBe(1000);
    const delays = first.map((job) => job.delay);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(1000);
    expect(new Set(delays).size).toBeGreaterThan(10);
    // A backlog: after fresh work in the queue.
    expect(new Set(first.map((job) => job.priority))).toEqual(new Set([1]));
    expect((await subscriptionRow(s.subscriptionId)).heldReleaseAt).toEqual(new Date(now.getTime() + 1000));
    // The next page waits for this one's spread.
    clock.advance(999);
    expect(await wake.execute({ limit: 100 })).toEqual({ probes: 0, released: 0 });
    clock.advance(1);
    expect(await wake.execute({ limit: 100 })).toEqual({ probes: 0, released: 500 });
    expect(await heldCount(s.subscriptionId)).toBe(0);
    // Released deliveries are due at their times, and claimed as any other.
    const job = first[0];
    expect(await new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher)).claim({ deliveryId: job.deliveryId }, job.attempt, new Date(now.getTime() + job.delay), 30_000)).toMatchObject({ probe: false });
  });

  it('go at the subscription’s rate where it has one', async () => {
    const s = await subscriptionWith(20, { rate: 10 });
    await held().holdAll(s.subscriptionId, clock.now(), 1000);
    expect((await waker().execute({ limit: 100 })).released).toBe(20);
    expect((await queued(s.deliveryIds)).map((job) => job.delay).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i * 100));
  });

  it('are looked at a limit a wake-up, in turn, so that many holding subscriptions all wake', async () => {
    const subscriptions = [await subscriptionWith(1), await subscriptionWith(1), await subscriptionWith(1)];
    for (const s of subscriptions) await held().holdAll(s.subscriptionId, clock.now(), 10);
    const wake = waker();
    let released = 0;
    for (let tick = 0; tick < 4 && released < 3; tick++) released += (await wake.execute({ limit: 2 })).released;
    expect(released).toBe(3);
    for (const s of subscriptions) expect(await heldCount(s.subscriptionId)).toBe(0);
  });

  it('are made held by the relay while the breaker is open (no job, never claimed only to be parked), and the probe is one of them', async () => {
    const open = await subscriptionWith(0, { breakerProbeAt: new Date(clock.now().getTime() - 1000) });
    const closed = await subscriptionWith(0);
    const events = [newTypeId('evt'), newTypeId('evt')];
    await sqlRows(
      orm.em.fork(),
      `INSERT INTO outbox_events (id, tenant_id, type, body, created_at) SELECT e, t, 'page.version.created', '{}', now() FROM unnest($1::text[], $2::text[]) AS x(e, t)`,
      [events, [open.tenantId, closed.tenantId]],
    );
    const { deliveries } = await outboxRelay(orm).fanOut(100, clock.now());
    // Only the closed breaker's delivery gets a job (made ready to send); the other waits held.
    const [ofClosed] = await sqlIn<{ id: string }>(orm, 'SELECT id FROM webhook_deliveries WHERE subscription_id = ?', [closed.subscriptionId]);
    expect(deliveries.map((job) => job.deliveryId)).toEqual([ofClosed.id]);
    expect(deliveries[0].direct).toBeDefined();
    expect(await heldCount(open.subscriptionId)).toBe(1);
    expect(await waker().execute({ limit: 100 })).toEqual({ probes: 1, released: 0 });
    const [probe] = await sqlIn<{ id: string; attempt_count: number }>(orm, 'SELECT id, attempt_count FROM webhook_deliveries WHERE subscription_id = ?', [open.subscriptionId]);
    expect(await queued([probe.id])).toEqual([{ deliveryId: probe.id, attempt: 1, delay: 0, priority: 0 }]);
  });
});
