import { MikroORM } from '@mikro-orm/postgresql';
import { newTypeId } from '../../src/domain/shared/type-id';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { SqlDeliveryStore } from '../../src/infrastructure/persistence/webhooks/sql-delivery.store';
import { openTestOrm, sqlIn } from '../support/database';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

async function subscriptionWithDelivery(finishedAgoMs: number | null): Promise<string> {
  const em = orm.em.fork();
  const tenantId = newTypeId('tenant');
  const subscriptionId = newTypeId('whsub');
  const eventId = newTypeId('evt');
  await em.execute(`INSERT INTO tenants (id, name, created_at) VALUES (?, 't', now())`, [tenantId]);
  await em.execute(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
     VALUES (?, ?, 'https://x.example', '{page.version.created}', true, 'v1.a.b.c', now(), now())`,
    [subscriptionId, tenantId],
  );
  await em.execute(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at) VALUES (?, ?, 'page.version.created', '{}', now())`, [eventId, tenantId]);
  if (finishedAgoMs !== null) {
    await em.execute(
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, created_at, updated_at, finished_at)
       VALUES (?, ?, ?, ?, 'page.version.created', 'delivered', 1, now(), now(), now() - (? || ' milliseconds')::interval)`,
      [newTypeId('whdlv'), tenantId, subscriptionId, eventId, String(finishedAgoMs)],
    );
  }
  return subscriptionId;
}

const active = async (id: string) => (await sqlIn<{ active: boolean }>(orm, 'SELECT active FROM webhook_subscriptions WHERE id = ?', [id]))[0].active;

describe('turning off dead subscriptions', () => {
  const store = () => new SqlDeliveryStore(orm, new SecretCipher(Buffer.alloc(32)));
  const HOUR = 3_600_000;

  it('turns off a subscription with no success within the window, once', async () => {
    for (const id of [await subscriptionWithDelivery(null), await subscriptionWithDelivery(2 * HOUR)]) {
      expect(await store().disableIfDead(id, new Date(), HOUR)).toBe(true);
      expect(await active(id)).toBe(false);
      expect(await store().disableIfDead(id, new Date(), HOUR)).toBe(false);
    }
  });

  it('keeps a subscription that got a delivery through within the window', async () => {
    const id = await subscriptionWithDelivery(60_000);
    expect(await store().disableIfDead(id, new Date(), HOUR)).toBe(false);
    expect(await active(id)).toBe(true);
  });
});
