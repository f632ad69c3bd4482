import { Client } from 'pg';
import { RollHistoryDays } from '../../src/application/webhook/history/roll-history-days.use-case';
import { newTypeId } from '../../src/domain/shared/type-id';
import { DAY_MS, dayStart } from '../../src/infrastructure/persistence/history/history-tables';
import { EXPIRED_ERROR } from '../../src/infrastructure/persistence/history/held-history-days';
import { SqlHistoryDays } from '../../src/infrastructure/persistence/history/sql-history-days';
import { subscriptionBody } from '../support/builders/subscriptions';
import { FixedClock } from '../support/fakes/fixed-clock';
import { createTenant } from '../support/test-app';
import { webhookScenario } from '../support/webhook-scenario';

// Issue 70: retention is each tenant's promise. Tenant A's backlog (its receiver asked it to wait)
// holds today's day past WEBHOOK_RETENTION_DAYS=1; tenant B's events of that day go at the
// retention all the same. A's deliveries are given up a grace later, its delivery log says why,
// and the day goes a notice after that.
describe('retention per tenant', () => {
  it("does not keep another tenant's events past the retention behind one tenant's backlog; the backlog is given up and its log says why", async () => {
    const s = await webhookScenario();
    const pg = new Client({ connectionString: s.db.url });
    await pg.connect();
    try {
      const b = await createTenant(s.t, 'B');
      const subscriptionOfB = (await s.t.http.post('/v0/webhook_subscriptions').set('x-api-key', b.apiKey).send(subscriptionBody(s.receiver.url)).expect(201)).body.id as string;
      const seed = async (tenantId: string, subscriptionId: string, status: 'pending' | 'delivered') => {
        const eventId = newTypeId('evt');
        const deliveryId = newTypeId('whdlv');
        await pg.query(`INSERT INTO outbox_events (id, tenant_id, type, body, created_at, published_at) VALUES ($1, $2, 'page.version.created', '{}', now(), now())`, [eventId, tenantId]);
        await pg.query(
          `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, updated_at, finished_at)
           VALUES ($1, $2, $3, $4, 'page.version.created', $5, 1, now() + interval '30 days', now(), now(), CASE WHEN $5 = 'pending' THEN NULL ELSE now() END)`,
          [deliveryId, tenantId, subscriptionId, eventId, status],
        );
        await pg.query(
          `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, created_at)
           VALUES ($1, $2, $3, $4, $5, 'page.version.created', 1, $6, 3, now())`,
          [newTypeId('whatt'), tenantId, deliveryId, subscriptionId, eventId, status === 'pending' ? 429 : 204],
        );
        return eventId;
      };
      const ofA = [await seed(s.tenant.tenantId, s.subscription.id, 'pending'), await seed(s.tenant.tenantId, s.subscription.id, 'pending')];
      const ofB = [await seed(b.tenantId, subscriptionOfB, 'delivered'), await seed(b.tenantId, subscriptionOfB, 'delivered')];
      const eventsOf = async (tenantId: string) => (await pg.query(`SELECT id FROM outbox_events WHERE tenant_id = $1 ORDER BY id`, [tenantId])).rows.map((r) => r.id as string);
      const countOf = async (table: string, tenantId: string) => (await pg.query(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [tenantId])).rows[0].n as number;
      const roll = (atMs: number) => new RollHistoryDays(new SqlHistoryDays(s.t.orm), { retentionDays: 1, sessionRetentionDays: null }, new FixedClock(new Date(atMs))).execute();
      const dayEnd = dayStart(Date.now()) + DAY_MS;
      const day = `outbox_events_p${new Date(dayEnd - DAY_MS).toISOString().slice(0, 10).replace(/-/g, '')}`;

      // An hour past the retention: B's rows of the day are gone, A's backlog keeps A's.
      const first = await roll(dayEnd + DAY_MS + 3_600_000);
      expect(first.kept).toEqual([day]);
      expect(await eventsOf(b.tenantId)).toEqual([]);
      for (const table of ['webhook_deliveries', 'webhook_delivery_attempts', 'event_feed']) expect(await countOf(table, b.tenantId)).toBe(0);
      expect(await eventsOf(s.tenant.tenantId)).toEqual([...ofA].sort());
      expect(first.givenUp).toBe(0);
      expect(ofB).toHaveLength(2);

      // A grace later, A's deliveries are given up; its delivery log says why.
      const second = await roll(dayEnd + 2 * DAY_MS + 7_200_000);
      expect(second.givenUp).toBe(2);
      expect(second.kept).toEqual([day]);
      const log = await s.t.http.get(`/v0/webhook_subscriptions/${s.subscription.id}/deliveries`).set('x-api-key', s.tenant.apiKey).expect(200);
      const expired = log.body.items.filter((item: { error: string | null }) => item.error === EXPIRED_ERROR);
      expect(expired.map((item: { eventId: string }) => item.eventId).sort()).toEqual([...ofA].sort());
      expect(expired.every((item: { attemptNumber: number; statusCode: number | null }) => item.attemptNumber === 2 && item.statusCode === null)).toBe(true);
      expect((await pg.query(`SELECT DISTINCT status FROM webhook_deliveries WHERE tenant_id = $1`, [s.tenant.tenantId])).rows).toEqual([{ status: 'failed' }]);

      // A notice after that, the day goes.
      const third = await roll(dayEnd + 3 * DAY_MS + 10_800_000);
      expect(third.kept).toEqual([]);
      expect(await eventsOf(s.tenant.tenantId)).toEqual([]);
      expect((await pg.query(`SELECT count(*)::int AS n FROM webhook_history_holds`)).rows[0].n).toBe(0);
    } finally {
      await pg.end();
      await s.close();
    }
  }, 60_000);
});
