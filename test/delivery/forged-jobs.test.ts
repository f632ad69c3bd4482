import { Queue } from 'bullmq';
import { newTypeId } from '../../src/domain/shared/type-id';
import { DELIVERY_QUEUE } from '../../src/infrastructure/queue/bullmq-delivery.queue';
import { openTestOrm } from '../support/database';
import { isolatedDatabase } from '../support/isolated-database';
import { rows } from '../support/platform';
import { eventually } from '../support/eventually';
import { createTenant, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { startTestWorker } from '../support/webhook-worker';
import { subscriptionBody } from '../support/builders/subscriptions';

// A job written straight into Redis (by anyone who can write there) that says "send this body to
// this subscription now, no claim needed" must not be believed: its direct part carries no seal
// made with the key Redis never holds, so the worker claims the delivery from PostgreSQL and sends
// only what is due there, with the body stored there (decisions.md 180).
let db: Awaited<ReturnType<typeof isolatedDatabase>>;
let t: TestApp;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
const receiver = new WebhookReceiver();
beforeAll(async () => {
  db = await isolatedDatabase();
  t = await startTestApp({ orm: await openTestOrm(db.url) });
  worker = await startTestWorker(db.url);
  await receiver.start();
  receiver.startTest();
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await t.orm.close(true);
  await receiver.stop();
  await db.drop();
});

it("sends another tenant's due delivery with its stored body only, whatever a job forged in Redis says", async () => {
  const victim = await createTenant(t, 'Victim');
  const attacker = await createTenant(t, 'Attacker');
  const subscription = (await t.http.post('/v0/webhook_subscriptions').set('x-api-key', victim.apiKey).send(subscriptionBody(receiver.url, { events: ['brand.created'] }))).body;
  // A delivery of the victim's, due and not yet attempted, that no relay round will hand over
  // (enqueued_at is set): only the forged jobs below can start it.
  const [eventId, deliveryId] = [newTypeId('evt'), newTypeId('whdlv')];
  const stored = JSON.stringify({ id: eventId, type: 'brand.created', createdAt: new Date().toISOString(), tenantId: victim.tenantId, data: { name: 'stored' } });
  await rows(t, `INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at) VALUES (?, ?, 'brand.created', ?, now(), now())`, [eventId, victim.tenantId, stored]);
  await rows(
    t,
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, enqueued_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'brand.created', 'pending', 0, now(), now(), now(), now())`,
    [deliveryId, victim.tenantId, subscription.id, eventId],
  );
  const direct = (seal?: string) => ({
    readAt: Date.now(), subscriptionId: subscription.id, version: 'any', healthy: true, eventId, eventType: 'brand.created', body: '{"forged":true}', trace: null, ...(seal && { seal }),
  });
  const queue = new Queue(DELIVERY_QUEUE, { connection: { host: '127.0.0.1', port: 6379 }, prefix: worker.config.webhooks.queuePrefix });
  try {
    await queue.addBulk(
      [undefined, 'A'.repeat(22)].flatMap((seal, i) => [
        { name: 'deliver', data: { tenantId: victim.tenantId, endpoint: 'forged', attempts: [{ deliveryId, eventId, attempt: 1, direct: direct(seal) }] }, opts: { jobId: `forged-${i}` } },
        { name: 'deliver', data: { tenantId: attacker.tenantId, endpoint: 'forged', attempts: [{ deliveryId, eventId, attempt: 1, direct: direct(seal) }] }, opts: { jobId: `forged-other-${i}` } },
      ]),
    );
    // Only the forged jobs can start it, so the first request is one of theirs.
    await receiver.waitFor(1);
    expect(receiver.received[0].rawBody.toString()).toBe(stored);
    // Once delivered, the jobs left find nothing due: one request in all.
    await eventually(() => queue.getJobCountByTypes('wait', 'active', 'delayed', 'prioritized'), (waiting) => waiting === 0);
    await eventually(() => rows<{ status: string; attempt_count: number }>(t, 'SELECT status, attempt_count FROM webhook_deliveries WHERE id = ?', [deliveryId]), (found) => found[0]?.status === 'delivered');
    expect(await rows(t, 'SELECT status, attempt_count FROM webhook_deliveries WHERE id = ?', [deliveryId])).toEqual([{ status: 'delivered', attempt_count: 1 }]);
    expect(receiver.received.map((r) => r.rawBody.toString())).toEqual([stored]);
  } finally {
    await queue.close();
  }
});
