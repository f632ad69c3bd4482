import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { DeliveryClaim } from '../../../application/webhook/attempt/delivery-claim';
import { HeldDeliveries, HeldOwner, HeldSubscription, ReleasePlan } from '../../../application/webhook/held/held-deliveries.port';
import { endpointKey } from './endpoint-key';
import { sqlQuery, sqlRows } from '../connection/sql-statement';
import { PaceColumns, paceOf } from '../stored/webhook-subscription-columns';
import type { StoredColumns } from '../typed/statement';
import { HOLD, HOLD_ALL, HOLDING, RELEASE, RELEASE_PAGE, WAKE_PROBE } from './held-deliveries.sql';
import { rowsWalkingIndexes } from '../connection/index-walk';

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
      HOLD,
      [claim.deliveryId, claim.attempt - 1, at],
    );
  }

  async holdAll(subscriptionId: string, now: Date, limit: number): Promise<number> {
    const rows = await sqlRows<{ n: number }>(
      this.orm.em,
      HOLD_ALL,
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
    const rows = await rowsWalkingIndexes<PaceColumns & StoredColumns<'webhook_subscriptions', 'id' | 'tenant_id' | 'url' | 'active' | 'breaker_probe_at'> & { deleted: boolean }>(
      this.orm,
      HOLDING,
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
      nextProbeAt: row.breaker_probe_at === null ? null : new Date(row.breaker_probe_at),
      pace: paceOf(row),
    }));
  }

  async wakeProbe(owner: HeldOwner, lastProbeId: string | null, now: Date): Promise<DeliveryJob | null> {
    // The probe is one never claimed when there is one (held by the breaker before any job took
    // it), so that a probe is the first of its two claims, not a third; then they take turns,
    // newest first, each once before any again.
    const [probe] = await sqlRows<StoredColumns<'webhook_deliveries', 'id' | 'event_id'> & { attempt: number }>(
      this.orm.em,
      WAKE_PROBE,
      [owner.id, now, lastProbeId],
    );
    if (!probe) return null;
    return { deliveryId: probe.id, eventId: probe.event_id, attempt: probe.attempt, delayMs: 0, tenantId: owner.tenantId, endpoint: endpointKey(owner.tenantId, owner.url), requeue: true };
  }

  async release(owner: HeldOwner, now: Date, pageSize: number, plan: ReleasePlan): Promise<{ jobs: DeliveryJob[]; spreadMs: number }> {
    const page = await sqlRows<StoredColumns<'webhook_deliveries', 'id' | 'event_id'> & { attempt: number }>(
      this.orm.em,
      RELEASE_PAGE,
      [owner.id, pageSize],
    );
    if (page.length === 0) return { jobs: [], spreadMs: 0 };
    const { offsetsMs, spreadMs } = plan(page.length);
    await sqlRows(
      this.orm.em,
      RELEASE,
      [page.map((row) => row.id), page.map((_, i) => new Date(now.getTime() + offsetsMs[i])), now, page.map((row) => row.event_id)],
    );
    const endpoint = endpointKey(owner.tenantId, owner.url);
    return { jobs: page.map((row, i) => ({ deliveryId: row.id, eventId: row.event_id, attempt: row.attempt, delayMs: offsetsMs[i], tenantId: owner.tenantId, endpoint, requeue: true })), spreadMs };
  }
}
