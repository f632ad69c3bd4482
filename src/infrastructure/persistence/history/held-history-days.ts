import type { Pool, PoolClient } from 'pg';
import { newTypeId } from '../../../domain/shared/type-id';
import { WEBHOOK_HISTORY } from './history-tables';

/** Rows one statement of the upkeep deletes or gives up at most: a held day is cleared in steps. */
const STEP_ROWS = 5000;

/** What a given-up delivery's attempt says in its subscription's delivery log. */
export const EXPIRED_ERROR = 'expired: not delivered within the retention of event history (WEBHOOK_RETENTION_DAYS), given up unsent';

const UNFINISHED = `status IN ('pending', 'sending', 'waiting')`;

/**
 * A day of webhook history past its retention that some tenants' unfinished deliveries hold
 * (decisions.md 173). The day is one partition of each history table, shared by every tenant, so
 * the promise is kept per tenant inside it: the rows of every other tenant are deleted at once,
 * the holding tenants' unfinished deliveries are given up a grace later, each with an attempt in
 * its log saying so, and the day is kept a notice longer for that log (webhook_history_holds).
 * `ending` names the day's partitions (`_p20261128`, `_before`).
 */
export class HeldHistoryDay {
  constructor(
    private readonly pool: Pool,
    private readonly ending: string,
  ) {}

  private table(name: string): string {
    return `${name}${this.ending}`;
  }

  /** The tenants holding the day: with a delivery not finished, or given up less than `noticeMs` ago. */
  async holdingTenants(now: Date, noticeMs: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ tenant_id: string }>(
      `SELECT DISTINCT tenant_id FROM ${this.table('webhook_deliveries')} WHERE ${UNFINISHED}
       UNION SELECT tenant_id FROM webhook_history_holds WHERE day = $1 AND given_up_at > $2`,
      [this.ending, new Date(now.getTime() - noticeMs)],
    );
    return rows.map((row) => row.tenant_id).sort();
  }

  /**
   * Deletes the rows of every tenant not holding the day, in steps; returns how many. Deliveries
   * go only once finished, and the holding tenants are read again before each table: a manual
   * delivery made meanwhile for another tenant's event keeps that tenant's later rows.
   */
  async clearOthers(now: Date, noticeMs: number): Promise<number> {
    let cleared = 0;
    for (const { table } of WEBHOOK_HISTORY) {
      const finished = table === 'webhook_deliveries' ? ` AND NOT (${UNFINISHED})` : '';
      const holding = await this.holdingTenants(now, noticeMs);
      for (;;) {
        const { rowCount } = await this.pool.query(
          `DELETE FROM ${this.table(table)} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${this.table(table)} WHERE tenant_id <> ALL ($1::text[])${finished} LIMIT ${STEP_ROWS}))`,
          [holding],
        );
        cleared += rowCount ?? 0;
        if ((rowCount ?? 0) < STEP_ROWS) break;
      }
    }
    return cleared;
  }

  /**
   * Gives up the day's unfinished deliveries (but those a worker is sending now, which end as
   * they end, or are given up at the next run): failed, each with an attempt in its log saying
   * why, and the day noted as held for its tenants' log. Returns how many.
   */
  async giveUp(now: Date): Promise<number> {
    let givenUp = 0;
    for (;;) {
      const client = await this.pool.connect();
      let step: number;
      try {
        step = await this.giveUpStep(client, now);
      } finally {
        client.release();
      }
      givenUp += step;
      if (step < STEP_ROWS) return givenUp;
    }
  }

  private async giveUpStep(client: PoolClient, now: Date): Promise<number> {
    await client.query('BEGIN');
    try {
      const { rows } = await client.query<{ id: string; event_id: string; tenant_id: string; subscription_id: string; event_type: string; attempt_count: number }>(
        `UPDATE ${this.table('webhook_deliveries')} d SET status = 'failed', next_attempt_at = NULL, locked_until = NULL, finished_at = $1, updated_at = $1
         FROM (SELECT id, event_id FROM ${this.table('webhook_deliveries')} WHERE ${UNFINISHED} AND (locked_until IS NULL OR locked_until < $1)
               LIMIT ${STEP_ROWS} FOR UPDATE SKIP LOCKED) g
         WHERE d.id = g.id AND d.event_id = g.event_id
         RETURNING d.id, d.event_id, d.tenant_id, d.subscription_id, d.event_type, d.attempt_count`,
        [now],
      );
      if (rows.length > 0) {
        await client.query(
          `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, error, created_at)
           SELECT a.id, a.tenant_id, a.delivery_id, a.subscription_id, a.event_id, a.event_type, a.attempt_number, NULL, 0, $8, $9
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[]) AS a(id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number)
           ON CONFLICT DO NOTHING`,
          [
            rows.map(() => newTypeId('whatt', now.getTime())),
            rows.map((r) => r.tenant_id),
            rows.map((r) => r.id),
            rows.map((r) => r.subscription_id),
            rows.map((r) => r.event_id),
            rows.map((r) => r.event_type),
            rows.map((r) => r.attempt_count + 1),
            EXPIRED_ERROR,
            now,
          ],
        );
        await client.query(
          `INSERT INTO webhook_history_holds (day, tenant_id, given_up_at) SELECT $1, t, $3 FROM unnest($2::text[]) AS t
           ON CONFLICT (day, tenant_id) DO UPDATE SET given_up_at = excluded.given_up_at`,
          [this.ending, [...new Set(rows.map((r) => r.tenant_id))], now],
        );
      }
      await client.query('COMMIT');
      return rows.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** Forgets the day's holds once it is dropped. */
  async forget(): Promise<void> {
    await this.pool.query('DELETE FROM webhook_history_holds WHERE day = $1', [this.ending]);
  }
}
