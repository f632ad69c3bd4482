import { MikroORM } from '@mikro-orm/postgresql';
import { newTypeId } from '../../src/domain/shared/type-id';
import { releasePlan } from '../../src/domain/webhook/attempt-decision';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { DecryptedSecrets } from '../../src/infrastructure/crypto/decrypted-secrets';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { SqlDeliveryClaims } from '../../src/infrastructure/persistence/webhooks/sql-delivery-claims.store';
import { SqlHeldDeliveries } from '../../src/infrastructure/persistence/webhooks/sql-held-deliveries.store';
import { sqlRows } from '../../src/infrastructure/persistence/connection/sql-statement';
import { sqlIn } from '../support/database';
import { testDatabaseUrl } from '../support/test-database-url';

// Held deliveries in PostgreSQL (issue 42, no storms): parked with no time, not taken by a job,
// woken per subscription: one probe while the breaker is open, then pages once it closed.
let orm: MikroORM;
const cipher = new SecretCipher(Buffer.alloc(32, 7));
const held = () => new SqlHeldDeliveries(orm);
beforeAll(async () => {
  orm = await MikroORM.init(createOrmConfig(testDatabaseUrl(), 2));
});
afterAll(() => orm.close(true));

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
     SELECT d, $2, $3, e, 'page.version.created', 'pending', 0, now() - interval '1 second', now(), now() FROM unnest($1::text[], $4::text[]) AS x(e, d)`,
    [ids.map(([e]) => e), tenantId, subscriptionId, ids.map(([, d]) => d)],
  );
  return { tenantId, subscriptionId, deliveryIds: ids.map(([, d]) => d) };
}

const heldCount = async (subscriptionId: string) =>
  (await sqlIn<{ n: number }>(orm, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ? AND status = 'pending' AND next_attempt_at IS NULL`, [subscriptionId]))[0].n;

describe('held deliveries', () => {
  it('are all held when the breaker opens, and a job left for one then takes nothing', async () => {
    const s = await subscriptionWith(30, { breakerProbeAt: new Date(Date.now() + 60_000) });
    const now = new Date();
    expect(await held().holdAll(s.subscriptionId, now, 1000)).toBe(30);
    expect(await heldCount(s.subscriptionId)).toBe(30);
    expect(await new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher)).claim(s.deliveryIds[0], 1, now, 30_000)).toBeNull();
    // Nothing is due for the subscription until its probe is.
    expect((await held().due(now, 1000)).map((d) => d.id)).not.toContain(s.subscriptionId);
  });

  it('wake one probe per subscription when it is due, once however many ask, and the probe is claimed as one', async () => {
    const s = await subscriptionWith(5, { breakerProbeAt: new Date(Date.now() - 1000) });
    const now = new Date();
    await held().holdAll(s.subscriptionId, now, 1000);
    expect(await held().due(now, 1000)).toContainEqual({ id: s.subscriptionId, probing: true, ratePerSecond: null });
    const lease = new Date(now.getTime() + 30_000);
    const woken = await Promise.all([held().wakeProbe(s.subscriptionId, now, lease), held().wakeProbe(s.subscriptionId, now, lease), held().wakeProbe(s.subscriptionId, now, lease)]);
    const probes = woken.filter((job) => job !== null);
    // The newest held first (held before any attempt was made of it).
    expect(probes).toEqual([expect.objectContaining({ deliveryId: s.deliveryIds[4], attempt: 1, tenantId: s.tenantId })]);
    expect(await heldCount(s.subscriptionId)).toBe(4);
    const store = new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher));
    const claim = await store.claim(s.deliveryIds[4], 1, now, 30_000);
    expect(claim).toMatchObject({ probe: true, subscription: { nextProbeAt: lease } });
    // Leased: not due again until the lease ends.
    expect((await held().due(now, 1000)).map((d) => d.id)).not.toContain(s.subscriptionId);
    // The probe failed and was held again; at the next probe another one goes: they take turns.
    await held().hold(claim!, now);
    const later = new Date(lease.getTime() + 1);
    const next = await held().wakeProbe(s.subscriptionId, later, new Date(later.getTime() + 30_000));
    expect(next?.deliveryId).toBe(s.deliveryIds[3]);
  });

  it('go in pages of at most 1,000 once the breaker has closed, each page spread over a second, the next page after it', async () => {
    const s = await subscriptionWith(1500);
    const now = new Date();
    await held().holdAll(s.subscriptionId, now, 10_000);
    expect(await held().due(now, 1000)).toContainEqual({ id: s.subscriptionId, probing: false, ratePerSecond: null });
    const plan = (count: number) => releasePlan(count, null, Math.random);
    const first = await held().release(s.subscriptionId, now, 1000, plan);
    expect(first).toHaveLength(1000);
    expect(new Set(first.map((job) => job.deliveryId)).size).toBe(1000);
    const delays = first.map((job) => job.delayMs);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(1000);
    expect(new Set(delays).size).toBeGreaterThan(10);
    // The next page waits for this one's spread.
    expect(await held().release(s.subscriptionId, now, 1000, plan)).toEqual([]);
    const later = new Date(now.getTime() + 1000);
    const second = await held().release(s.subscriptionId, later, 1000, plan);
    expect(second).toHaveLength(500);
    expect(await heldCount(s.subscriptionId)).toBe(0);
    // Released deliveries are due at their times, and claimed as any other.
    const job = second[0];
    expect(await new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher)).claim(job.deliveryId, job.attempt, new Date(later.getTime() + job.delayMs), 30_000)).toMatchObject({ probe: false });
  });

  it('go at the subscription’s rate where it has one', async () => {
    const s = await subscriptionWith(20, { rate: 10 });
    const now = new Date();
    await held().holdAll(s.subscriptionId, now, 1000);
    const page = await held().release(s.subscriptionId, now, 1000, (count) => releasePlan(count, 10, Math.random));
    expect(page.map((job) => job.delayMs)).toEqual(Array.from({ length: 20 }, (_, i) => i * 100));
  });
});
