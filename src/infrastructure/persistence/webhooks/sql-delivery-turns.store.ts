import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { ClaimedTurn, DeliveryTurns, PageTurnOwner } from '../../../application/webhook/delivery/delivery-turns.port';
import { DecryptedSecrets } from '../../crypto/decrypted-secrets';
import { claimAttempts, claimOf } from './attempt-claims';
import { endpointKey } from './endpoint-key';
import { GroupWriter } from '../connection/group-writer';
import { sqlRows } from '../connection/sql-statement';
import { eventIdCeiling } from '../history/history-tables';
import { CALL_PASS_TURNS_SQL, STALLED_TURNS_SQL } from './delivery-turns.sql';
import { rowsWalkingIndexes } from '../connection/index-walk';
import type { StoredColumns } from '../typed/statement';

/** A delivery whose turn came: its columns, and its subscription's URL (an ordered delivery always has its order key). */
type PassedRow = StoredColumns<'webhook_deliveries', 'id' | 'event_id' | 'tenant_id' | 'subscription_id' | 'attempt_count'> &
  StoredColumns<'webhook_subscriptions', 'url'> & { order_key: string };

/**
 * Ordered deliveries' turns in PostgreSQL (delivery-turns.sql.ts). Passes go in groups
 * (GroupWriter), as claims and records do: those asked for while a pass is in flight share the
 * next call of webhook_pass_turns, one statement and one commit. One at a time each was a
 * transaction of its own, and the ordered drain spent more on them than on its attempts.
 */
@Injectable()
export class SqlDeliveryTurns extends DeliveryTurns {
  constructor(
    private readonly orm: MikroORM,
    private readonly secrets: DecryptedSecrets,
  ) {
    super();
  }

  private readonly passes = new GroupWriter<Pass, ClaimedTurn | null>((items) => this.passAll(items), { maxInFlight: 1, maxBatch: 200 });

  async passOn(turn: PageTurnOwner, now: Date): Promise<DeliveryJob | null> {
    return (await this.passes.add({ turn, now, lockMs: null }))?.job ?? null;
  }

  passOnClaiming(turn: PageTurnOwner, now: Date, lockMs: number): Promise<ClaimedTurn | null> {
    return this.passes.add({ turn, now, lockMs });
  }

  /** Where the last sweep's read of waiting pages stopped: the next goes on from there, then starts over. */
  private stalledAfter: [subscription: string, page: string] = ['', ''];

  async passStalled(now: Date, limit: number): Promise<DeliveryJob[]> {
    const pages = await rowsWalkingIndexes<StoredColumns<'webhook_deliveries', 'tenant_id' | 'subscription_id'> & { order_key: string; stalled: boolean }>(this.orm, STALLED_TURNS_SQL, [
      ...this.stalledAfter,
      limit,
      eventIdCeiling(now.getTime()),
    ]);
    const last = pages.at(-1);
    this.stalledAfter = pages.length < limit || !last ? ['', ''] : [last.subscription_id, last.order_key];
    const stalled = pages.filter((page) => page.stalled);
    const jobs = await Promise.all(stalled.map((turn) => this.passOn({ tenantId: turn.tenant_id, subscriptionId: turn.subscription_id, orderKey: turn.order_key }, now)));
    return jobs.filter((job): job is DeliveryJob => job !== null);
  }

  /**
   * One call of webhook_pass_turns for the group, then one claim statement for the next
   * deliveries whose askers want them claimed: two round trips in one write, where a claim of
   * their own each waited for the claims' group in flight (a third of each link of a chain).
   */
  private async passAll(items: Pass[]): Promise<(ClaimedTurn | null)[]> {
    const subscriptions = items.map(({ turn }) => turn.subscriptionId);
    const keys = items.map(({ turn }) => turn.orderKey);
    const now = items.reduce((latest, item) => (item.now > latest ? item.now : latest), items[0].now);
    const rows = await sqlRows<PassedRow>(this.orm.em, CALL_PASS_TURNS_SQL, [subscriptions, keys, now]);
    // A page asked for twice in one group gets its next delivery once: the first asker's.
    const passed = new Map(rows.map((row) => [`${row.subscription_id} ${row.order_key}`, row]));
    const jobs = items.map(({ turn }) => {
      const pair = `${turn.subscriptionId} ${turn.orderKey}`;
      const next = passed.get(pair);
      passed.delete(pair);
      return next ? jobOf(next) : null;
    });
    const toClaim = items.flatMap((item, i) => {
      const job = jobs[i];
      return job && item.lockMs !== null ? [{ i, request: { deliveryId: job.deliveryId, eventId: job.eventId, attempt: job.attempt, now: item.now, lockedUntil: new Date(item.now.getTime() + item.lockMs) } }] : [];
    });
    const claimed = toClaim.length > 0 ? await claimAttempts(this.orm.em, toClaim.map(({ request }) => request)) : [];
    const claims = new Map(toClaim.map(({ i, request }, at) => [i, claimed[at] ? claimOf(claimed[at], request.attempt, this.secrets) : null]));
    return jobs.map((job, i) => (job ? { job, claim: claims.get(i) ?? null } : null));
  }
}

/** A pass asked for; `lockMs` when the next delivery is to be claimed for the asker. */
interface Pass {
  turn: PageTurnOwner;
  now: Date;
  lockMs: number | null;
}

function jobOf(next: PassedRow): DeliveryJob {
  return { deliveryId: next.id, eventId: next.event_id, attempt: next.attempt_count + 1, delayMs: 0, tenantId: next.tenant_id, endpoint: endpointKey(next.tenant_id, next.url), requeue: true };
}
