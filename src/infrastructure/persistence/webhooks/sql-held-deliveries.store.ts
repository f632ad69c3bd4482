import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryClaim, DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { HeldDeliveries, HeldOwner, HeldSubscription, ReleasePlan } from '../../../application/webhook/delivery/held-deliveries.port';
import { endpointKey } from './endpoint-key';
import { sqlQuery, sqlRows } from '../connection/sql-statement';
import { PACE_COLUMNS, PaceColumns, paceOf } from '../stored/webhook-subscription.row';
import { rowsWalkingIndexes } from '../connection/index-walk';

/** A held delivery: pending, no time set (parked), scheduled (a manual one is never held). */
const HELD = `status IN ('pending', 'sending') AND next_attempt_at IS NULL AND manual_id IS NULL`;

/** The first subscription after `after` (in id order) with a held delivery: one step of a skip scan. */
const NEXT_HOLDING = (after: string) => `SELECT subscription_id FROM webhook_deliveries WHERE ${HELD} AND subscription_id > ${after} ORDER BY subscription_id LIMIT 1`;

/**
 * Held deliveries in PostgreSQL (webhook_deliveries_held_idx holds only them): parked by an
 * attempt, woken per subscription by the worker's tick, inside the unit of work that holds the
 * subscription's row lock (two workers' ticks take turns); only rows still held move.
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
         WHERE (id, event_id) IN (SELECT id, event_id FROM webhook_deliveries
                      WHERE subscription_id = $1 AND status IN ('pending', 'sending') AND manual_id IS NULL AND next_attempt_at IS NOT NULL
                        AND (locked_until IS NULL OR locked_until < $2)
                      ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM held`,
      [subscriptionId, now, limit],
    );
    return rows[0].n;
  }

  async holding(after: string, limit: number): Promise<HeldSubscription[]> {
    // A skip scan of webhook_deliveries_held_idx (held rows only): one step per subscription, one
    // entry per day each, so a tick reads `limit` subscriptions whatever their backlogs hold (a
    // DISTINCT over the index read every held row on every tick, and when that timed out no
    // tenant's breaker got its probe). Sorting is priced out so that each step walks the days'
    // indexes in order (a Merge Append with LIMIT 1) rather than sorting a subscription's backlog.
    // The subscriptions' state is read without a lock: the wake-up decides again under it.
    const rows = await rowsWalkingIndexes<PaceColumns & { id: string; tenant_id: string; url: string; active: boolean; deleted: boolean; breaker_probe_at: Date | null }>(
      this.orm,
      `WITH RECURSIVE held AS (
         (${NEXT_HOLDING('$1')})
         UNION ALL
         SELECT n.subscription_id FROM held h CROSS JOIN LATERAL (${NEXT_HOLDING('h.subscription_id')}) n)
       SELECT s.id, s.tenant_id, s.url, s.active, s.deleted_at IS NOT NULL AS deleted, s.breaker_probe_at, ${PACE_COLUMNS}
       FROM (SELECT subscription_id FROM held LIMIT $2) h
       CROSS JOIN LATERAL (SELECT * FROM webhook_subscriptions s WHERE s.id = h.subscription_id) s`,
      [after, limit],
    );
    // In id order (the scan's steps go up; a sort in SQL would be priced out with the rest).
    rows.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    return rows.map((row) => ({
      id: row.id,
      tenantId: row.tenant_id,
      url: row.url,
      active: row.active,
      deleted: row.deleted,
      nextProbeAt: row.breaker_probe_at && new Date(row.breaker_probe_at),
      pace: paceOf(row),
    }));
  }

  async wakeProbe(owner: HeldOwner, lastProbeId: string | null, now: Date): Promise<DeliveryJob | null> {
    // The probe is one never claimed when there is one (held by the breaker before any job took
    // it), so that a probe is the first of its two claims, not a third; then they take turns,
    // newest first, each once before any again.
    const [probe] = await sqlRows<{ id: string; event_id: string; attempt: number }>(
      this.orm.em,
      `UPDATE webhook_deliveries SET next_attempt_at = $2, enqueued_at = $2, updated_at = $2
       WHERE (id, event_id) = (SELECT id, event_id FROM webhook_deliveries WHERE subscription_id = $1 AND ${HELD}
                   ORDER BY (attempt_count = 0 AND locked_until IS NULL) DESC, (id < coalesce($3, '~')) DESC, id DESC LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, event_id, attempt_count + 1 AS attempt`,
      [owner.id, now, lastProbeId],
    );
    if (!probe) return null;
    return { deliveryId: probe.id, eventId: probe.event_id, attempt: probe.attempt, delayMs: 0, tenantId: owner.tenantId, endpoint: endpointKey(owner.tenantId, owner.url), requeue: true };
  }

  async release(owner: HeldOwner, now: Date, pageSize: number, plan: ReleasePlan): Promise<{ jobs: DeliveryJob[]; spreadMs: number }> {
    const page = await sqlRows<{ id: string; event_id: string; attempt: number }>(
      this.orm.em,
      `SELECT id, event_id, attempt_count + 1 AS attempt FROM webhook_deliveries WHERE subscription_id = $1 AND ${HELD} ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [owner.id, pageSize],
    );
    if (page.length === 0) return { jobs: [], spreadMs: 0 };
    const { offsetsMs, spreadMs } = plan(page.length);
    await sqlRows(
      this.orm.em,
      `UPDATE webhook_deliveries d SET next_attempt_at = r.at, enqueued_at = $3, updated_at = $3
       FROM unnest($1::text[], $2::timestamptz[], $4::text[]) AS r(id, at, event_id) WHERE d.id = r.id AND d.event_id = r.event_id`,
      [page.map((row) => row.id), page.map((_, i) => new Date(now.getTime() + offsetsMs[i])), now, page.map((row) => row.event_id)],
    );
    const endpoint = endpointKey(owner.tenantId, owner.url);
    return { jobs: page.map((row, i) => ({ deliveryId: row.id, eventId: row.event_id, attempt: row.attempt, delayMs: offsetsMs[i], tenantId: owner.tenantId, endpoint, requeue: true })), spreadMs };
  }
}
