import { MikroORM } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { DecryptedSecrets } from '../../src/infrastructure/crypto/decrypted-secrets';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { SqlDeliveryClaims } from '../../src/infrastructure/persistence/webhooks/sql-delivery-claims.store';
import { SqlStrandedDeliveries } from '../../src/infrastructure/persistence/webhooks/sql-stranded-deliveries.store';
import { testDatabaseUrl } from '../support/test-database-url';
import { sqlIn } from '../support/database';

// The claim commits without waiting for the disk, for its own transaction only (decisions.md 55):
// on a pool of one connection, the attempt's record that follows must run with the server's
// durable setting again, and a claim must still take the attempt exactly once.
let orm: MikroORM;
const cipher = new SecretCipher(Buffer.alloc(32, 7));
beforeAll(async () => {
  orm = await MikroORM.init(createOrmConfig(testDatabaseUrl(), 1));
});
afterAll(() => orm.close(true));

async function pendingDelivery(): Promise<string> {
  const em = orm.em.fork();
  const [tenantId, subscriptionId, eventId, deliveryId] = [newTypeId('tenant'), newTypeId('whsub'), newTypeId('evt'), newTypeId('whdlv')];
  await em.execute(`INSERT INTO tenants (id, name, created_at) VALUES (?, 't', now())`, [tenantId]);
  await em.execute(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
     VALUES (?, ?, 'http://127.0.0.1:9/hooks', '{page.version.created}', true, ?, now(), now())`,
    [subscriptionId, tenantId, cipher.encrypt('whsec_test')],
  );
  await em.execute(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at) VALUES (?, ?, 'page.version.created', '{"a":1}', now())`, [eventId, tenantId]);
  await em.execute(
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'page.version.created', 'pending', 0, now() - interval '2 minutes', now(), now())`,
    [deliveryId, tenantId, subscriptionId, eventId],
  );
  return deliveryId;
}

const setting = async () => {
  const pool = (await orm.em.getConnection().getNativeClient()) as Pool;
  return (await pool.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
};

describe('claiming a delivery attempt', () => {
  it('takes the attempt once, and leaves the connection committing durably for the record', async () => {
    const before = await setting();
    const deliveryId = await pendingDelivery();
    const store = new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher));
    const claim = await store.claim({ deliveryId }, 1, new Date(), 30_000);
    expect(claim).toMatchObject({ deliveryId, attempt: 1, body: '{"a":1}', subscription: { url: 'http://127.0.0.1:9/hooks', signingSecret: 'whsec_test', active: true } });
    expect(await store.claim({ deliveryId }, 1, new Date(), 30_000)).toBeNull();
    expect(await setting()).toBe(before);
    expect(before).not.toBe('off');

    await store.record(claim!, { statusCode: 204, durationMs: 3, error: null }, { status: 'delivered' }, new Date());
    const rows = await sqlIn<{ status: string }>(orm, 'SELECT status FROM webhook_deliveries WHERE id = ?', [deliveryId]);
    expect(rows[0].status).toBe('delivered');
  });

  it('lets a lease run out: another job then takes the attempt, and the sweeper finds it', async () => {
    const deliveryId = await pendingDelivery();
    const store = new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher));
    const t0 = new Date(Date.now() - 60_000);
    expect(await store.claim({ deliveryId }, 1, t0, 10_000)).not.toBeNull();
    // Leased until t0 + 10 s: neither a second job nor the sweeper touch it before then.
    expect(await store.claim({ deliveryId }, 1, new Date(t0.getTime() + 5_000), 10_000)).toBeNull();
    const strandedAt = async (at: Date) => (await new SqlStrandedDeliveries(orm).findStranded(at, 10_000, 10_000)).map((job) => job.deliveryId);
    expect(await strandedAt(new Date(t0.getTime() + 5_000))).not.toContain(deliveryId);
    // The worker holding it died: after the lease, both find it again.
    expect(await strandedAt(new Date())).toContain(deliveryId);
    // Re-enqueued now: the next sweeps leave it to that job for one lease.
    expect(await strandedAt(new Date())).not.toContain(deliveryId);
    expect(await strandedAt(new Date(Date.now() + 10_000))).toContain(deliveryId);
    expect(await store.claim({ deliveryId }, 1, new Date(), 10_000)).not.toBeNull();
  });

  it('leaves a never-attempted delivery to its first attempt (which may be on its way unclaimed) for the longer grace, a retried one for a lease', async () => {
    const first = await pendingDelivery();
    const retried = await pendingDelivery();
    await sqlIn(orm, 'UPDATE webhook_deliveries SET attempt_count = 1 WHERE id = ?', [retried]);
    // Both were due 2 minutes ago: past a lease of 100 s, within a first attempt's grace of 150 s.
    const found = (await new SqlStrandedDeliveries(orm).findStranded(new Date(), 10_000, 100_000, 150_000)).map((job) => job.deliveryId);
    expect(found).toContain(retried);
    expect(found).not.toContain(first);
    const later = (await new SqlStrandedDeliveries(orm).findStranded(new Date(Date.now() + 60_000), 10_000, 100_000, 150_000)).map((job) => job.deliveryId);
    expect(later).toContain(first);
  });

  it('leaves a delivery handed to the queue after its oldest waiting job to that job, however long it waits', async () => {
    const retried = await pendingDelivery();
    const lost = await pendingDelivery();
    // Both due 2 minutes ago and handed to the queue past a lease: one a minute ago, one 10 s ago.
    await sqlIn(orm, `UPDATE webhook_deliveries SET attempt_count = 1, enqueued_at = now() - interval '1 minute' WHERE id = ?`, [lost]);
    await sqlIn(orm, `UPDATE webhook_deliveries SET attempt_count = 1, enqueued_at = now() - interval '10 seconds' WHERE id = ?`, [retried]);
    const stranded = new SqlStrandedDeliveries(orm);
    // The queue's oldest waiting job was added 30 s ago: the one handed over since waits behind it.
    const behind = (await stranded.findStranded(new Date(), 10_000, 5_000, 5_000, new Date(Date.now() - 30_000))).map((job) => job.deliveryId);
    expect(behind).toContain(lost);
    expect(behind).not.toContain(retried);
    // With no job waiting, the lease alone decides.
    const alone = (await stranded.findStranded(new Date(), 10_000, 5_000)).map((job) => job.deliveryId);
    expect(alone).toContain(retried);
  });

  it('records attempts that finish together each as if alone, and skips the stale one only', async () => {
    const store = new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher));
    const ids = await Promise.all(Array.from({ length: 12 }, () => pendingDelivery()));
    const claims = await Promise.all(ids.map((id) => store.claim({ deliveryId: id }, 1, new Date(), 30_000)));
    const at = new Date();
    // Twelve records handed in at once (they go out in groups). One is stale: its delivery moved on
    // to a later attempt meanwhile, so the delivery keeps its state (the attempt's log row is
    // written, as a single record's was).
    await sqlIn(orm, 'UPDATE webhook_deliveries SET attempt_count = 5 WHERE id = ?', [ids[11]]);
    await Promise.all(
      claims.map((claim, i) =>
        store.record(claim!, { statusCode: i % 2 === 0 ? 204 : 500, durationMs: i, error: null }, i % 2 === 0 ? { status: 'delivered' } : { status: 'pending', nextAttemptAt: new Date(at.getTime() + 60_000) }, at),
      ),
    );
    const rows = await sqlIn<{ id: string; status: string; attempt_count: number; last_status_code: number | null; locked_until: Date | null; finished_at: Date | null }>(orm, 
      'SELECT id, status, attempt_count, last_status_code, locked_until, finished_at FROM webhook_deliveries WHERE id IN (?) ORDER BY id',
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    ids.slice(0, 11).forEach((id, i) => {
      expect(byId.get(id)).toMatchObject({ status: i % 2 === 0 ? 'delivered' : 'pending', attempt_count: 1, last_status_code: i % 2 === 0 ? 204 : 500, locked_until: null });
      expect(byId.get(id)!.finished_at === null).toBe(i % 2 === 1);
    });
    expect(byId.get(ids[11])).toMatchObject({ status: 'pending', attempt_count: 5, last_status_code: null });
    const attempts = await sqlIn<{ delivery_id: string; duration_ms: number }>(orm, 'SELECT delivery_id, duration_ms FROM webhook_delivery_attempts WHERE delivery_id IN (?)', [ids]);
    expect(new Map(attempts.map((a) => [a.delivery_id, a.duration_ms]))).toEqual(new Map(ids.map((id, i) => [id, i])));
    // Recording the same attempt again (a duplicate job) changes nothing.
    await store.record(claims[0]!, { statusCode: 500, durationMs: 99, error: 'x' }, { status: 'failed', reason: 'schedule-exhausted' }, new Date());
    expect((await sqlIn<{ status: string }>(orm, 'SELECT status FROM webhook_deliveries WHERE id = ?', [ids[0]]))[0].status).toBe('delivered');
  });

  it('claims handed in together each take their own attempt, and a duplicate job in the same group takes nothing', async () => {
    const store = new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher));
    const ids = await Promise.all(Array.from({ length: 6 }, () => pendingDelivery()));
    // ids[4] is leased by an earlier job; ids[5] is asked for a later attempt than it is at.
    expect(await store.claim({ deliveryId: ids[4] }, 1, new Date(), 30_000)).not.toBeNull();
    const asked = [
      ...ids.slice(0, 4).map((id) => ({ id, attempt: 1 })),
      { id: ids[1], attempt: 1 }, // the duplicate job
      { id: ids[4], attempt: 1 },
      { id: ids[5], attempt: 2 },
    ];
    // Handed in within one turn of the event loop: they go out as one statement.
    const claims = await Promise.all(asked.map(({ id, attempt }) => store.claim({ deliveryId: id }, attempt, new Date(), 30_000)));
    expect(claims.map((claim) => claim?.deliveryId ?? null)).toEqual([ids[0], ids[1], ids[2], ids[3], null, null, null]);
    claims.slice(0, 4).forEach((claim) => expect(claim).toMatchObject({ attempt: 1, body: '{"a":1}', subscription: { signingSecret: 'whsec_test' } }));
    const leased = await sqlIn<{ n: number }>(orm, 'SELECT count(*)::int AS n FROM webhook_deliveries WHERE id IN (?) AND locked_until > now()', [ids]);
    expect(leased[0].n).toBe(5);
    // ids[5] is still there for its own attempt.
    expect(await store.claim({ deliveryId: ids[5] }, 1, new Date(), 30_000)).toMatchObject({ deliveryId: ids[5], attempt: 1 });
  });

  it("takes over a 'sending' delivery left by an earlier version once its lease has run out", async () => {
    const deliveryId = await pendingDelivery();
    await sqlIn(orm, `UPDATE webhook_deliveries SET status = 'sending', locked_until = now() + interval '1 minute' WHERE id = ?`, [deliveryId]);
    const store = new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher));
    expect(await store.claim({ deliveryId }, 1, new Date(), 10_000)).toBeNull();
    await sqlIn(orm, `UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE id = ?`, [deliveryId]);
    expect(await store.claim({ deliveryId }, 1, new Date(), 10_000)).not.toBeNull();
  });
});
