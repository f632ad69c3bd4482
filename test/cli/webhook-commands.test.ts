import { MikroORM } from '@mikro-orm/postgresql';
import { newTypeId } from '../../src/domain/shared/type-id';
import { loadConfig } from '../../src/infrastructure/config/app-config';
import { SecretCipher } from '../../src/infrastructure/crypto/secret-cipher';
import { cli } from '../support/cli';
import { openTestOrm, sqlIn } from '../support/database';

// Support's redelivery and recovery, on a failed delivery written directly (no worker runs on the
// shared test database: the requests are checked where they land, as rows for the relay).
let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

// The CLI reads the subscription (and decrypts its secret) with the test configuration's key.
const cipher = new SecretCipher(loadConfig({ SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY! }).secretsEncryptionKey!);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sqlIn<T>(orm, text, params);

async function failedDelivery(): Promise<{ tenantId: string; subscriptionId: string; deliveryId: string }> {
  const [tenantId, subscriptionId, eventId, deliveryId] = [newTypeId('tenant'), newTypeId('whsub'), newTypeId('evt'), newTypeId('whdlv')];
  await sql(`INSERT INTO tenants (id, name, created_at) VALUES (?, 'cli webhooks', now())`, [tenantId]);
  await sql(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
     VALUES (?, ?, 'http://127.0.0.1:9/hooks', '{page.version.created}', true, ?, now(), now())`,
    [subscriptionId, tenantId, cipher.encrypt('whsec_cli')],
  );
  await sql(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at) VALUES (?, ?, 'page.version.created', '{}', now(), now())`, [eventId, tenantId]);
  await sql(
    `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, ?, 'page.version.created', 'failed', 5, now(), now(), now())`,
    [deliveryId, tenantId, subscriptionId, eventId],
  );
  return { tenantId, subscriptionId, deliveryId };
}

const redeliveries = async (deliveryId: string) => (await sql<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE redelivery_of = ?', [deliveryId]))[0].n;

describe('platform CLI: webhooks', () => {
  it('webhook:redeliver queues one attempt of the delivery and prints it', async () => {
    const d = await failedDelivery();
    const res = await cli('webhook:redeliver', '--tenant', d.tenantId, '--subscription', d.subscriptionId, '--delivery', d.deliveryId, '--json');
    expect(res).toMatchObject({ code: 0, json: { deliveryId: expect.stringMatching(/^whdlv_/), redeliveryOf: d.deliveryId, eventId: expect.stringMatching(/^evt_/) } });
    expect(await redeliveries(d.deliveryId)).toBe(1);
    const text = await cli('webhook:redeliver', '--tenant', d.tenantId, '--subscription', d.subscriptionId, '--delivery', d.deliveryId);
    expect(text.code).toBe(2);
    expect(text.stderr.join('\n')).toMatch(/in flight or a redelivery waiting/);
  });

  it('webhook:recover queues what failed since the time', async () => {
    const d = await failedDelivery();
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const res = await cli('webhook:recover', '--tenant', d.tenantId, '--subscription', d.subscriptionId, '--since', since);
    expect(res.code).toBe(0);
    expect(res.stdout).toEqual(['1 deliveries queued again']);
    expect(await redeliveries(d.deliveryId)).toBe(1);
  });

  it('exits 2, writing nothing, for an unknown delivery, another tenant and a bad --since', async () => {
    const d = await failedDelivery();
    const other = await failedDelivery();
    const unknown = await cli('webhook:redeliver', '--tenant', d.tenantId, '--subscription', d.subscriptionId, '--delivery', other.deliveryId);
    expect(unknown).toMatchObject({ code: 2, stderr: [`not found: ${other.deliveryId}`] });
    const foreign = await cli('webhook:recover', '--tenant', other.tenantId, '--subscription', d.subscriptionId, '--since', new Date().toISOString());
    expect(foreign).toMatchObject({ code: 2, stderr: [`not found: ${d.subscriptionId}`] });
    for (const since of ['yesterday', '2026-11-20T00:00:00', '2020-01-01T00:00:00Z']) {
      const bad = await cli('webhook:recover', '--tenant', d.tenantId, '--subscription', d.subscriptionId, '--since', since);
      expect(bad.code).toBe(2);
      expect(bad.stderr[0]).toMatch(/since/);
    }
    expect(await redeliveries(d.deliveryId)).toBe(0);
    expect(await redeliveries(other.deliveryId)).toBe(0);
  });
});
