import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AttemptResult, DeliveryClaim, DeliveryJob } from '../../../application/webhook/delivery/delivery-job';
import { DeliveryStore } from '../../../application/webhook/delivery/delivery-store.port';
import { newTypeId } from '../../../domain/shared/type-id';
import { NextStep } from '../../../domain/webhook/retry-policy';
import { SecretCipher } from '../../crypto/secret-cipher';
import { endpointKey } from '../../webhooks/endpoint-key';
import { StoredPreviousSecret } from '../repositories/sql-webhook-subscription.repository';
import { DisabledReason } from '../../../domain/webhook/endpoint-health';
import { GroupWriter } from '../connection/group-writer';
import { sqlQuery, sqlRows } from '../connection/sql-statement';

/** One attempt's record: its log row and the delivery's next state. */
interface AttemptRecord {
  id: string;
  tenantId: string;
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
  trigger: 'scheduled' | 'manual';
  redeliveryOf: string | null;
  at: Date;
  status: string;
  finishedAt: Date | null;
}

/** One job's request to take its attempt of a delivery. */
interface ClaimRequest {
  deliveryId: string;
  attempt: number;
  now: Date;
  lockedUntil: Date;
}

/** A taken attempt and what sending it needs. */
interface ClaimRow {
  id: string;
  attempt_count: number;
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  url: string;
  active: boolean;
  deleted: boolean;
  events: string[];
  secret: string;
  previous_secrets: StoredPreviousSecret[];
  manual: boolean;
  redelivery_of: string | null;
  body: string;
  traceparent: string | null;
  tracestate: string | null;
  rate_limit_per_second: number | null;
  send_not_before: Date | null;
  paced_slot_at: Date | null;
  healthy: boolean;
  disabled_reason: DisabledReason | null;
  breaker_probe_at: string | null;
  probe: boolean;
}

/**
 * Takes a group of attempts and reads what sending each needs, in one statement.
 *
 * The lease is `locked_until` alone: the status stays 'pending' ('sending' was set by
 * earlier versions and is still taken over when its lease has run out). No indexed column
 * changes, so PostgreSQL updates the row in place on its page (a HOT update, Migration
 * ...20261123010000 leaves room for it) instead of adding an entry to each of its three
 * indexes. The claim commits without waiting for the disk (synchronous_commit off for this statement's
 * own transaction only): it is a lease, not a fact. Lost in a crash of PostgreSQL, the
 * delivery is simply pending again and is sent by the next job or the sweeper, as after a
 * killed worker (decisions.md 28 and 55). The attempt's record stays durable. This halves
 * the disk flushes a delivery waits for; the drain was waiting on them (IO:WALSync,
 * LWLock:WALWrite in pg_stat_activity).
 *
 * A held delivery (no next attempt time: parked with its subscription, SqlHeldDeliveries) is not
 * taken: a job left for it finds nothing, and only the worker's wake-up moves it.
 *
 * The plan must stay on the primary key however stale the statistics. With `status IN
 * ('pending', 'sending')` the planner could use the unfinished-deliveries partial index,
 * which the statistics call tiny when a backlog has just arrived: it read every pending row
 * to hash them, a cost that grows with the backlog (docs/performance-analysis.md). The same condition written as the
 * terminal states left out (equal under the table's CHECK) does not match that index's
 * predicate, and `d.id = ANY($1)` gives the planner the primary-key lookups.
 */
export const CLAIM_ATTEMPTS_SQL = `WITH lease AS (SELECT set_config('synchronous_commit', 'off', true)),
       r AS (SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::timestamptz[]) AS r(id, attempt_count, now, locked_until)),
       claimed AS (
         UPDATE webhook_deliveries d SET status = 'pending', locked_until = r.locked_until, updated_at = r.now
         FROM r
         WHERE d.id = ANY($1::text[]) AND d.id = r.id AND d.attempt_count = r.attempt_count AND d.status NOT IN ('delivered', 'failed', 'cancelled') AND d.next_attempt_at IS NOT NULL AND (d.locked_until IS NULL OR d.locked_until < r.now)
         RETURNING d.id, d.attempt_count, d.tenant_id, d.subscription_id, d.event_id, d.event_type, d.manual_id IS NOT NULL AS manual, d.redelivery_of, d.paced_slot_at)
       SELECT c.id, c.attempt_count, c.tenant_id, c.subscription_id, c.event_id, c.event_type, c.manual, c.redelivery_of, s.url, s.active,
              s.deleted_at IS NOT NULL AS deleted, s.events, s.signing_secret_encrypted AS secret, s.previous_signing_secrets AS previous_secrets, o.body, o.traceparent, o.tracestate,
              s.rate_limit_per_second, s.send_not_before, c.paced_slot_at, s.consecutive_failures = 0 AND s.disabled_reason IS NULL AS healthy,
              s.disabled_reason, s.breaker_probe_at, (c.id = s.breaker_probe_delivery_id) IS TRUE AS probe
       FROM claimed c CROSS JOIN lease JOIN webhook_subscriptions s ON s.id = c.subscription_id JOIN outbox_events o ON o.id = c.event_id`;

/**
 * Writes a group of attempts: each one's log row (once per attempt number) and its delivery's next
 * state, only if the delivery is still at the attempt before. `d.id = ANY($3)` keeps the update on
 * the primary key however stale the statistics (see the claim).
 */
export const RECORD_ATTEMPTS_SQL = `WITH r AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::int[],
                              $10::text[], $11::timestamptz[], $12::timestamptz[], $13::text[], $14::timestamptz[], $15::text[], $16::text[])
           AS r(id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms,
                error, next_attempt_at, created_at, status, finished_at, trigger, redelivery_of)),
       logged AS (
         INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, error, next_attempt_at,
                                                created_at, trigger, redelivery_of)
         SELECT id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, error, next_attempt_at, created_at,
                trigger, redelivery_of FROM r
         ON CONFLICT (delivery_id, attempt_number) DO NOTHING),
       -- A healthy endpoint's last success, written at most once a second (the drain's many
       -- successes would otherwise queue on the row's lock); one that was failing or turned off
       -- is left to the subscription's own rules (WebhookSubscription.attemptFinished).
       noted AS (
         UPDATE webhook_subscriptions s SET last_success_at = ok.at
         FROM (SELECT subscription_id, max(created_at) AS at FROM r WHERE status = 'delivered' GROUP BY subscription_id) ok
         WHERE s.id = ok.subscription_id AND s.consecutive_failures = 0 AND s.disabled_reason IS NULL
           AND (s.last_success_at IS NULL OR s.last_success_at < ok.at - interval '1 second'))
       UPDATE webhook_deliveries d SET status = r.status, attempt_count = r.attempt_number, next_attempt_at = r.next_attempt_at, locked_until = NULL, paced_slot_at = NULL,
         last_status_code = r.status_code, updated_at = r.created_at, finished_at = r.finished_at
       FROM r WHERE d.id = ANY($3::text[]) AND d.id = r.delivery_id AND d.attempt_count = r.attempt_number - 1`;

/** Delivery id order: groups lock their delivery rows in one order (no deadlock between two in flight). */
const byDeliveryId = (a: { deliveryId: string }, b: { deliveryId: string }) => (a.deliveryId < b.deliveryId ? -1 : a.deliveryId > b.deliveryId ? 1 : 0);

/**
 * Deliveries in PostgreSQL. Workers have no request context, so every call works on its own
 * EntityManager fork. A claim is a conditional UPDATE on (status, attempt_count): whichever job
 * runs a given attempt first takes it, any duplicate finds nothing to take.
 */
@Injectable()
export class SqlDeliveryStore extends DeliveryStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async claim(deliveryId: string, attempt: number, now: Date, lockMs: number): Promise<DeliveryClaim | null> {
    const row = await this.claims.add({ deliveryId, attempt, now, lockedUntil: new Date(now.getTime() + lockMs) });
    if (!row) return null;
    return {
      deliveryId,
      attempt,
      tenantId: row.tenant_id,
      eventId: row.event_id,
      eventType: row.event_type,
      body: row.body,
      trace: row.traceparent ? { traceparent: row.traceparent, tracestate: row.tracestate } : null,
      subscription: {
        id: row.subscription_id,
        url: row.url,
        active: row.active && !row.deleted,
        deleted: row.deleted,
        events: row.events,
        healthy: row.healthy,
        disabledReason: row.disabled_reason,
        nextProbeAt: row.breaker_probe_at === null ? null : new Date(row.breaker_probe_at),
        signingSecret: this.secret(row.secret),
        previousSecrets: row.previous_secrets.map((old) => ({ secret: this.secret(old.secret), expiresAt: new Date(old.expiresAt) })),
      },
      manual: row.manual ? { redeliveryOf: row.redelivery_of } : null,
      probe: row.probe,
      endpoint: endpointKey(row.tenant_id, row.url),
      pace: {
        ratePerSecond: row.rate_limit_per_second,
        notBefore: row.send_not_before ? new Date(row.send_not_before) : null,
        slotAt: row.paced_slot_at ? new Date(row.paced_slot_at) : null,
      },
    };
  }

  /**
   * Claims go in groups too (GroupWriter), for the same reason as the records below: each was a
   * round trip, a statement and a commit of its own, and the drain's worker spent a quarter of
   * its profile writing to PostgreSQL and waking its backends. One group in flight at a time
   * (claims and records alike): the next one gathers while it runs. With two, groups were half
   * as large (2.3 attempts a statement in the drain) and PostgreSQL paid a statement's fixed cost
   * for each; one drain each on the same data set: 2,762 → 3,006 deliveries/s, CPU 538 → 484 µs
   * a delivery (docs/performance-analysis.md).
   */
  private readonly claims = new GroupWriter<ClaimRequest, ClaimRow | null>((items) => this.claimAll(items), { maxInFlight: 1, maxBatch: 200 });

  private async claimAll(items: ClaimRequest[]): Promise<(ClaimRow | null)[]> {
    const sorted = [...items].sort(byDeliveryId);
    // One statement: take each attempt and read what sending it needs (one round trip, not two).
    // On the pool, a prepared statement (sqlQuery): parsed and planned once per connection.
    const { rows } = await sqlQuery<ClaimRow>(
      this.orm.em,
      CLAIM_ATTEMPTS_SQL,
      [sorted.map((c) => c.deliveryId), sorted.map((c) => c.attempt - 1), sorted.map((c) => c.now), sorted.map((c) => c.lockedUntil)],
    );
    // A row is one attempt taken. Two jobs for the same attempt in one group (a duplicate job):
    // the row goes to the first, the other finds nothing to take, as it would after it.
    const taken = new Map(rows.map((row) => [`${row.id} ${row.attempt_count + 1}`, row]));
    return items.map((item) => {
      const key = `${item.deliveryId} ${item.attempt}`;
      const row = taken.get(key) ?? null;
      taken.delete(key);
      return row;
    });
  }

  async record(claim: DeliveryClaim, result: AttemptResult, next: NextStep, at: Date): Promise<void> {
    await this.records.add({
      id: newTypeId('whatt', at.getTime()),
      tenantId: claim.tenantId,
      deliveryId: claim.deliveryId,
      subscriptionId: claim.subscription.id,
      eventId: claim.eventId,
      eventType: claim.eventType,
      attempt: claim.attempt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      nextAttemptAt: next.status === 'pending' ? next.nextAttemptAt : null,
      trigger: claim.manual ? 'manual' : 'scheduled',
      redeliveryOf: claim.manual?.redeliveryOf ?? null,
      at,
      status: next.status,
      finishedAt: next.status === 'pending' ? null : at,
    });
  }

  /**
   * Attempts' records go in groups (GroupWriter): those that finish while a record is being
   * written share the next statement and its one durable commit. Each attempt's commit waited for
   * its own flush of the WAL, and the drain's sessions were mostly waiting on those flushes
   * (IO:WALSync, LWLock:WALWrite). The statement applies each row as the single-row one did: the
   * attempt's log row (once per attempt number) and the delivery's next state, only if the
   * delivery is still at the attempt before this one. Rows go in delivery id order, so two groups
   * in flight lock their rows in one order (RECORD_ATTEMPTS_SQL).
   */
  private readonly records = new GroupWriter<AttemptRecord>((rows) => this.recordAll(rows), { maxInFlight: 1, maxBatch: 200 });

  private async recordAll(rows: AttemptRecord[]): Promise<void> {
    const sorted = [...rows].sort(byDeliveryId);
    const column = <K extends keyof AttemptRecord>(key: K) => sorted.map((row) => row[key]);
    await sqlQuery(
      this.orm.em,
      RECORD_ATTEMPTS_SQL,
      [
        column('id'), column('tenantId'), column('deliveryId'), column('subscriptionId'), column('eventId'), column('eventType'), column('attempt'),
        column('statusCode'), column('durationMs'), column('error'), column('nextAttemptAt'), column('at'), column('status'), column('finishedAt'),
        column('trigger'), column('redeliveryOf'),
      ],
    );
  }

  /** Decrypted secrets by ciphertext: AES-GCM is cheap, but not free at thousands per second. */
  private readonly secrets = new Map<string, string>();
  private secret(stored: string): string {
    let plain = this.secrets.get(stored);
    if (plain === undefined) {
      plain = this.cipher.decrypt(stored);
      if (this.secrets.size > 10_000) this.secrets.clear();
      this.secrets.set(stored, plain);
    }
    return plain;
  }

  async cancel(claim: DeliveryClaim, at: Date, status: 'cancelled' | 'failed' = 'cancelled'): Promise<void> {
    await sqlRows(
      this.orm.em,
      `UPDATE webhook_deliveries SET status = $3, locked_until = NULL, next_attempt_at = NULL, updated_at = $1, finished_at = $1
       WHERE id = $2 AND status IN ('pending', 'sending')`,
      [at, claim.deliveryId, status],
    );
  }

  async takeRateSlot(subscriptionId: string, ratePerSecond: number, now: Date): Promise<Date> {
    // The subscription's row is the one place every worker takes turns on: the slot is the later of
    // now and the next free one, and the next free one moves on by 1/rate.
    const { rows } = await sqlQuery<{ slot: Date }>(
      this.orm.em,
      `UPDATE webhook_subscriptions SET send_not_before = greatest(send_not_before, $2) + make_interval(secs => 1.0 / $3)
       WHERE id = $1 RETURNING send_not_before - make_interval(secs => 1.0 / $3) AS slot`,
      [subscriptionId, now, ratePerSecond],
    );
    return rows.length === 0 ? now : new Date(rows[0].slot);
  }

  async putOff(claim: DeliveryClaim, until: Date, slotTaken: boolean, at: Date): Promise<void> {
    await sqlQuery(
      this.orm.em,
      `UPDATE webhook_deliveries SET next_attempt_at = $3, paced_slot_at = $4, locked_until = NULL, enqueued_at = $5, updated_at = $5
       WHERE id = $1 AND attempt_count = $2 AND status IN ('pending', 'sending')`,
      [claim.deliveryId, claim.attempt - 1, until, slotTaken ? until : null, at],
    );
  }

  async holdSubscription(subscriptionId: string, until: Date): Promise<void> {
    await sqlQuery(this.orm.em, 'UPDATE webhook_subscriptions SET send_not_before = greatest(send_not_before, $2) WHERE id = $1', [subscriptionId, until]);
  }

  async findStranded(now: Date, limit: number, graceMs: number): Promise<DeliveryJob[]> {
    const before = new Date(now.getTime() - graceMs);
    // SKIP LOCKED: two workers' sweeps share the stranded rows instead of both taking each.
    const { rows } = await sqlQuery<{ id: string; attempt_count: number; tenant_id: string; url: string }>(
      this.orm.em,
      `WITH stranded AS (
         SELECT id FROM webhook_deliveries
         WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until < $2)
           AND (enqueued_at IS NULL OR enqueued_at <= $1)
         ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET enqueued_at = $2
       FROM stranded, webhook_subscriptions s
       WHERE d.id = stranded.id AND s.id = d.subscription_id
       RETURNING d.id, d.attempt_count, d.tenant_id, s.url`,
      [before, now, limit],
    );
    return rows.map((row) => ({ deliveryId: row.id, attempt: row.attempt_count + 1, delayMs: 0, tenantId: row.tenant_id, endpoint: endpointKey(row.tenant_id, row.url) }));
  }
}
