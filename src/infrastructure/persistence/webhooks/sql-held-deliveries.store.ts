import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryClaim, DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { HeldDeliveries, HeldSubscription, ReleasePlan } from '../../../application/webhook/delivery/held-deliveries.port';
import { endpointKey } from '../../webhooks/endpoint-key';
import { sqlQuery, sqlRows } from '../connection/sql-statement';

/** A held delivery: pending, no time set (parked), scheduled (a manual one is never held). */
const HELD = `status IN ('pending', 'sending') AND next_attempt_at IS NULL AND manual_id IS NULL`;

/** A subscription that may let its held deliveries go: breaker closed (or it is off), no Retry-After, the last page's spread over. */
const MAY_RELEASE = `(s.breaker_probe_at IS NULL OR NOT s.active OR s.deleted_at IS NOT NULL)
  AND (s.held_release_at IS NULL OR s.held_release_at <= $1)
  AND (s.send_not_before IS NULL OR s.send_not_before <= $1 OR NOT s.active OR s.deleted_at IS NOT NULL)`;

/** An open breaker whose probe is due. */
const PROBE_DUE = `s.breaker_probe_at IS NOT NULL AND s.breaker_probe_at <= $1 AND s.active AND s.deleted_at IS NULL`;

/**
 * Held deliveries in PostgreSQL (webhook_deliveries_held_idx holds only them): parked by an
 * attempt, woken per subscription by the worker's tick. Each wake takes its subscription's row
 * lock first (two workers' ticks take turns) and moves only rows still held.
 */
@Injectable()
export class SqlHeldDeliveries extends HeldDeliveries {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  async hold(claim: DeliveryClaim, at: Date): Promise<void> {
    // The lease ends now rather than being cleared: a held delivery that was claimed keeps that
    // mark, so that a probe is chosen among those never claimed first (wakeProbe).
    await sqlQuery(
      this.orm.em,
      `UPDATE webhook_deliveries SET next_attempt_at = NULL, paced_slot_at = NULL, locked_until = $3, enqueued_at = NULL, updated_at = $3
       WHERE id = $1 AND attempt_count = $2 AND status IN ('pending', 'sending')`,
      [claim.deliveryId, claim.attempt - 1, at],
    );
  }

  async holdAll(subscriptionId: string, now: Date, limit: number): Promise<number> {
    const rows = await sqlRows<{ n: number }>(
      this.orm.em,
      `WITH held AS (
         UPDATE webhook_deliveries SET next_attempt_at = NULL, paced_slot_at = NULL, enqueued_at = NULL, updated_at = $2
         WHERE id IN (SELECT id FROM webhook_deliveries
                      WHERE subscription_id = $1 AND status IN ('pending', 'sending') AND manual_id IS NULL AND next_attempt_at IS NOT NULL
                        AND (locked_until IS NULL OR locked_until < $2)
                      ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM held`,
      [subscriptionId, now, limit],
    );
    return rows[0].n;
  }

  async due(now: Date, limit: number): Promise<HeldSubscription[]> {
    const rows = await sqlRows<{ id: string; probing: boolean; rate_limit_per_second: number | null }>(
      this.orm.em,
      `SELECT s.id, (${PROBE_DUE}) AS probing, s.rate_limit_per_second
       FROM webhook_subscriptions s
       WHERE s.id IN (SELECT DISTINCT subscription_id FROM webhook_deliveries WHERE ${HELD}) AND ((${PROBE_DUE}) OR (${MAY_RELEASE}))
       ORDER BY s.id LIMIT $2`,
      [now, limit],
    );
    return rows.map((row) => ({ id: row.id, probing: row.probing, ratePerSecond: row.rate_limit_per_second }));
  }

  async wakeProbe(subscriptionId: string, now: Date, leaseUntil: Date): Promise<DeliveryJob | null> {
    return this.orm.em.fork().transactional(async (em) => {
      const [subscription] = await sqlRows<{ tenant_id: string; url: string; last_probe: string | null }>(
        em,
        `SELECT s.tenant_id, s.url, s.breaker_probe_delivery_id AS last_probe FROM webhook_subscriptions s WHERE s.id = $2 AND ${PROBE_DUE} FOR NO KEY UPDATE SKIP LOCKED`,
        [now, subscriptionId],
      );
      if (!subscription) return null;
      // The probe is one never claimed when there is one (held by the breaker before any job
      // took it), so that a probe is the first of its two claims, not a third; then they take
      // turns, newest first, each once before any again.
      const [probe] = await sqlRows<{ id: string; attempt: number }>(
        em,
        `UPDATE webhook_deliveries SET next_attempt_at = $2, enqueued_at = $2, updated_at = $2
         WHERE id = (SELECT id FROM webhook_deliveries WHERE subscription_id = $1 AND ${HELD}
                     ORDER BY (attempt_count = 0 AND locked_until IS NULL) DESC, (id < coalesce($3, '~')) DESC, id DESC LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING id, attempt_count + 1 AS attempt`,
        [subscriptionId, now, subscription.last_probe],
      );
      if (!probe) return null;
      await sqlRows(em, 'UPDATE webhook_subscriptions SET breaker_probe_at = $2, breaker_probe_delivery_id = $3 WHERE id = $1', [subscriptionId, leaseUntil, probe.id]);
      return { deliveryId: probe.id, attempt: probe.attempt, delayMs: 0, tenantId: subscription.tenant_id, endpoint: endpointKey(subscription.tenant_id, subscription.url), requeue: true };
    });
  }

  async release(subscriptionId: string, now: Date, pageSize: number, plan: ReleasePlan): Promise<DeliveryJob[]> {
    return this.orm.em.fork().transactional(async (em) => {
      const [subscription] = await sqlRows<{ tenant_id: string; url: string }>(
        em,
        `SELECT s.tenant_id, s.url FROM webhook_subscriptions s WHERE s.id = $2 AND ${MAY_RELEASE} FOR NO KEY UPDATE SKIP LOCKED`,
        [now, subscriptionId],
      );
      if (!subscription) return [];
      const page = await heldPage(em, subscriptionId, pageSize);
      if (page.length === 0) return [];
      const { offsetsMs, spreadMs } = plan(page.length);
      const times = page.map((_, i) => new Date(now.getTime() + offsetsMs[i]));
      await sqlRows(
        em,
        `UPDATE webhook_deliveries d SET next_attempt_at = r.at, enqueued_at = $3, updated_at = $3
         FROM unnest($1::text[], $2::timestamptz[]) AS r(id, at) WHERE d.id = r.id`,
        [page.map((row) => row.id), times, now],
      );
      await sqlRows(em, 'UPDATE webhook_subscriptions SET held_release_at = $2 WHERE id = $1', [subscriptionId, new Date(now.getTime() + spreadMs)]);
      const endpoint = endpointKey(subscription.tenant_id, subscription.url);
      return page.map((row, i) => ({ deliveryId: row.id, attempt: row.attempt, delayMs: offsetsMs[i], tenantId: subscription.tenant_id, endpoint, requeue: true }));
    });
  }
}

/** The oldest held deliveries of a subscription, at most `size`, locked for this transaction. */
function heldPage(em: EntityManager, subscriptionId: string, size: number): Promise<{ id: string; attempt: number }[]> {
  return sqlRows(
    em,
    `SELECT id, attempt_count + 1 AS attempt FROM webhook_deliveries WHERE subscription_id = $1 AND ${HELD} ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [subscriptionId, size],
  );
}
