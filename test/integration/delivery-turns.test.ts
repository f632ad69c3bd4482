import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { newTypeId } from '../../src/domain/shared/type-id';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { DecryptedSecrets } from '../../src/infrastructure/crypto/decrypted-secrets';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { SqlDeliveryClaims } from '../../src/infrastructure/persistence/webhooks/sql-delivery-claims.store';
import { SqlDeliveryTurns } from '../../src/infrastructure/persistence/webhooks/sql-delivery-turns.store';
import { SqlHeldDeliveries } from '../../src/infrastructure/persistence/webhooks/sql-held-deliveries.store';
import { outboxRelay } from '../support/outbox-relay';
import { sqlIn } from '../support/database';
import { isolatedDatabase } from '../support/isolated-database';

// Ordered delivery's turns (issue 45) in PostgreSQL: the relay makes one of a page's deliveries
// due and the rest waiting, the worker passes the turn on, the sweeper finds turns nobody holds.
let orm: MikroORM;
let database: Awaited<ReturnType<typeof isolatedDatabase>>;
const cipher = new SecretCipher(Buffer.alloc(32, 7));
const turns = () => new SqlDeliveryTurns(orm, new DecryptedSecrets(cipher));

beforeAll(async () => {
  // Its own database: the relay reads the whole outbox.
  database = await isolatedDatabase();
  orm = await MikroORM.init(createOrmConfig(database.url, 6));
});
afterAll(async () => {
  await orm.close(true);
  await database.drop();
});

/** A tenant with one subscription that orders by page. */
async function orderedSubscription(): Promise<{ tenantId: string; subscriptionId: string }> {
  const [tenantId, subscriptionId] = [newTypeId('tenant'), newTypeId('whsub')];
  await sqlIn(orm, `INSERT INTO tenants (id, name, created_at) VALUES (?, 't', now())`, [tenantId]);
  await sqlIn(
    orm,
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at, ordering)
     VALUES (?, ?, 'http://127.0.0.1:9/hooks', '{page.version.created}', true, ?, now(), now(), 'page')`,
    [subscriptionId, tenantId, cipher.encrypt('whsec_test')],
  );
  return { tenantId, subscriptionId };
}

/** `page.version.created` of `pageId`'s version `version`, written to the outbox unpublished; its id. */
async function versionEvent(tenantId: string, pageId: string, version: number): Promise<string> {
  const id = newTypeId('evt');
  const body = JSON.stringify({ id, type: 'page.version.created', createdAt: new Date().toISOString(), tenantId, data: { pageId, version, pageGroupId: 'page_x', pageVersionId: 'pagever_x', createdAt: '' } });
  await sqlIn(orm, `INSERT INTO outbox_events (id, tenant_id, type, body, created_at) VALUES (?, ?, 'page.version.created', ?, now())`, [id, tenantId, body]);
  return id;
}

const deliveries = (subscriptionId: string) =>
  sqlIn<{ id: string; status: string; order_seq: string; next: boolean }>(
    orm,
    'SELECT id, status, order_seq, next_attempt_at IS NOT NULL AS next FROM webhook_deliveries WHERE subscription_id = ? ORDER BY order_seq',
    [subscriptionId],
  ).then((list) => list.map((d) => ({ id: d.id, status: d.status, seq: Number(d.order_seq), due: d.next })));
const deliver = (id: string) => sqlIn(orm, `UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL, finished_at = now() WHERE id = ?`, [id]);

describe('ordered deliveries\' turns', () => {
  it('gives a page\'s first version the turn and makes the later ones wait, with no job and nothing a claim or the breaker takes', async () => {
    const { tenantId, subscriptionId } = await orderedSubscription();
    const page = newTypeId('page');
    for (const v of [1, 2, 3]) await versionEvent(tenantId, page, v);
    const { deliveries: jobs } = await outboxRelay(orm).fanOut(100, new Date());
    const made = await deliveries(subscriptionId);
    expect(made.map(({ status, seq, due }) => ({ status, seq, due }))).toEqual([
      { status: 'pending', seq: 1, due: true },
      { status: 'waiting', seq: 2, due: false },
      { status: 'waiting', seq: 3, due: false },
    ]);
    // One job, for the turn's holder, which carries the page it holds.
    expect(jobs.map((j) => j.deliveryId)).toEqual([made[0].id]);
    expect(jobs[0].direct?.orderKey).toBe(page);
    const now = new Date();
    expect(await new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher)).claim({ deliveryId: made[1].id }, 1, now, 30_000)).toBeNull();
    expect(await new SqlHeldDeliveries(orm).holdAll(subscriptionId, now, 100)).toBe(1);
    expect((await deliveries(subscriptionId)).map((d) => d.status)).toEqual(['pending', 'waiting', 'waiting']);
  });

  it('passes the turn on once, to the lowest version, only when no delivery of the page holds it', async () => {
    const { tenantId, subscriptionId } = await orderedSubscription();
    const page = newTypeId('page');
    for (const v of [1, 2, 3]) await versionEvent(tenantId, page, v);
    await outboxRelay(orm).fanOut(100, new Date());
    const [first, second] = await deliveries(subscriptionId);
    const owner = { tenantId, subscriptionId, orderKey: page };
    // Still held by the first: nothing passes.
    expect(await turns().passOn(owner, new Date())).toBeNull();
    await deliver(first.id);
    const passed = await Promise.all([turns().passOn(owner, new Date()), turns().passOn(owner, new Date()), turns().passOn(owner, new Date())]);
    expect(passed.filter((job) => job !== null).map((job) => job!.deliveryId)).toEqual([second.id]);
    expect((await deliveries(subscriptionId)).map((d) => d.status)).toEqual(['delivered', 'pending', 'waiting']);
  });

  it('claims the next version in the same write when asked: sendable as it comes, and no claim of a job for it takes it again', async () => {
    const { tenantId, subscriptionId } = await orderedSubscription();
    const page = newTypeId('page');
    for (const v of [1, 2]) await versionEvent(tenantId, page, v);
    await outboxRelay(orm).fanOut(100, new Date());
    const [first, second] = await deliveries(subscriptionId);
    const owner = { tenantId, subscriptionId, orderKey: page };
    await deliver(first.id);
    const now = new Date();
    const passed = await turns().passOnClaiming(owner, now, 30_000);
    expect(passed?.job.deliveryId).toBe(second.id);
    expect(passed?.claim).toMatchObject({ deliveryId: second.id, attempt: 1, tenantId, orderKey: page, subscription: { id: subscriptionId, url: 'http://127.0.0.1:9/hooks', signingSecret: 'whsec_test' } });
    expect(JSON.parse(passed!.claim!.body)).toMatchObject({ data: { pageId: page, version: 2 } });
    // The job the pass also gives (enqueued only when the worker could not start it) finds it taken.
    expect(await new SqlDeliveryClaims(orm, new DecryptedSecrets(cipher)).claim({ deliveryId: second.id, eventId: passed!.job.eventId }, 1, now, 30_000)).toBeNull();
    expect(await turns().passOnClaiming(owner, now, 30_000)).toBeNull();
  });

  it('makes a later version wait while another relay holds an earlier version of its page, then the earlier one takes the turn', async () => {
    const { tenantId, subscriptionId } = await orderedSubscription();
    const page = newTypeId('page');
    const v1 = await versionEvent(tenantId, page, 1);
    await versionEvent(tenantId, page, 2);
    // Another relay's round holds version 1 (the lock on its queue row, SKIP LOCKED for this relay).
    const other = new Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT id FROM outbox_unpublished WHERE id = $1 FOR UPDATE', [v1]);
      const round = await outboxRelay(orm).fanOut(100, new Date());
      expect(round.events).toBe(1);
      expect(round.deliveries).toEqual([]);
      expect((await deliveries(subscriptionId)).map(({ status, seq }) => ({ status, seq }))).toEqual([{ status: 'waiting', seq: 2 }]);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    const { deliveries: jobs } = await outboxRelay(orm).fanOut(100, new Date());
    const [first, second] = await deliveries(subscriptionId);
    expect(jobs.map((j) => j.deliveryId)).toEqual([first.id]);
    expect([first.status, second.status]).toEqual(['pending', 'waiting']);
  });

  it('finds turns nobody holds and passes each on, the lowest version of each page', async () => {
    const { tenantId, subscriptionId } = await orderedSubscription();
    const [pageA, pageB] = [newTypeId('page'), newTypeId('page')];
    for (const v of [1, 2, 3]) {
      await versionEvent(tenantId, pageA, v);
      await versionEvent(tenantId, pageB, v);
    }
    await outboxRelay(orm).fanOut(100, new Date());
    // Both first versions end and no worker passes their turns on (it was killed in between).
    for (const d of (await deliveries(subscriptionId)).filter((d) => d.seq === 1)) await deliver(d.id);
    const jobs = await turns().passStalled(new Date(), 100);
    expect(jobs).toHaveLength(2);
    const after = await deliveries(subscriptionId);
    expect(after.filter((d) => d.status === 'pending').map((d) => d.seq)).toEqual([2, 2]);
    expect(new Set(jobs.map((j) => j.deliveryId))).toEqual(new Set(after.filter((d) => d.status === 'pending').map((d) => d.id)));
    // Held again: nothing stalled.
    expect(await turns().passStalled(new Date(), 100)).toEqual([]);
  });
});
