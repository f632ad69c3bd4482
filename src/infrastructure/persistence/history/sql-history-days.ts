import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { HeldDaysRule, HistoryDays } from '../../../application/webhook/history/history-days.port';
import { HeldHistoryDay } from './held-history-days';
import { boundsOf, createDaySql, DAY_MS, dayStart, EVENTS, HISTORY_TABLES, HistoryTable, SESSIONS, WEBHOOK_HISTORY } from './history-tables';

/** Taken while a day is made or dropped, so that two workers never race on the same CREATE or DROP TABLE. */
const UPKEEP_LOCK = 7_264_011_803_170_002n;
/** How long a day's CREATE or DROP waits for its tables' locks, how often it tries, and what a wait that ran out raises. */
const DAY_LOCK_WAIT_MS = 200;
const DAY_TRIES = 5;
const LOCK_NOT_AVAILABLE = '55P03';

interface Partition {
  name: string;
  from: number;
  to: number;
  detaching: boolean;
}

/**
 * The history's days in PostgreSQL (history-tables.ts). DDL goes as plain statements on the pool
 * (the simple protocol: no prepared statement per partition name, and DETACH … CONCURRENTLY may
 * not run in a transaction).
 *
 * A day is detached CONCURRENTLY, then dropped: the detach takes no lock that stops reads or
 * writes of the table (PostgreSQL 14+), where a DROP of a partition would queue every query of the
 * table behind it while it waits for its lock. A detach cut short leaves the partition pending,
 * and the next run finishes it (FINALIZE).
 */
@Injectable()
export class SqlHistoryDays extends HistoryDays {
  constructor(private readonly orm: MikroORM) {
    super();
  }

  private async pool(): Promise<Pool> {
    return (await this.orm.em.getConnection().getNativeClient()) as Pool;
  }

  private async partitions(table: HistoryTable): Promise<Partition[]> {
    const { rows } = await (await this.pool()).query<{ name: string; bound: string; detaching: boolean }>(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhdetachpending AS detaching
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass($1) ORDER BY c.relname`,
      [table.table],
    );
    return rows.flatMap((row) => {
      const bounds = boundsOf(table, row.bound);
      return bounds ? [{ name: row.name, detaching: row.detaching, ...bounds }] : [];
    });
  }

  async makeUntil(until: Date): Promise<string[]> {
    const made: string[] = [];
    for (const table of HISTORY_TABLES) {
      const ends = (await this.partitions(table)).map((p) => p.to).filter(Number.isFinite);
      if (ends.length === 0) continue;
      for (let day = Math.max(...ends); day <= dayStart(until.getTime()); day += DAY_MS) {
        await this.briefly(createDaySql(table, day));
        made.push(`${table.table} ${new Date(day).toISOString().slice(0, 10)}`);
      }
    }
    return made;
  }

  async madeThrough(): Promise<Date | null> {
    let through = Infinity;
    for (const table of WEBHOOK_HISTORY) {
      const ends = (await this.partitions(table)).filter((p) => !p.detaching).map((p) => p.to).filter(Number.isFinite);
      if (ends.length === 0) return null;
      through = Math.min(through, Math.max(...ends));
    }
    return new Date(through);
  }

  /**
   * One statement of the upkeep (a day's CREATE, a detached day's DROP), in a transaction of its
   * own that waits at most DAY_LOCK_WAIT_MS for its locks: a CREATE … PARTITION OF locks its table
   * (ACCESS EXCLUSIVE) and every table its foreign keys name (a session's page, page group and
   * tenant), and so does the DROP of a day with them. Made all in one transaction, the days held
   * the events' lock while they waited for the pages' one, and a POST pages that had written its
   * page and then wrote its event closed a cycle that PostgreSQL ended as a deadlock, with a 500
   * (docs/decisions.md 160). Now no statement holds a lock while another waits, and a wait this
   * short ends before PostgreSQL looks for deadlocks (deadlock_timeout, 1 s) and before the
   * writes queued behind it wait long. A lock that does not come is tried again a few times, then
   * left to the next run (the days are made two weeks ahead).
   */
  private async briefly(statement: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      const client = await (await this.pool()).connect();
      try {
        await client.query('BEGIN');
        // Two workers never race on the same CREATE or DROP; the second finds it done.
        await client.query('SELECT pg_advisory_xact_lock($1)', [UPKEEP_LOCK.toString()]);
        await client.query(`SET LOCAL lock_timeout = '${DAY_LOCK_WAIT_MS}ms'`);
        await client.query(statement);
        await client.query('COMMIT');
        return;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || tries === DAY_TRIES) throw error;
      } finally {
        client.release();
      }
      await new Promise((resolve) => setTimeout(resolve, DAY_LOCK_WAIT_MS * (1 + Math.random())));
    }
  }

  async dropWebhookDaysBefore(before: Date, held?: HeldDaysRule): Promise<{ statements: string[]; kept: string[]; cleared?: number; givenUp?: number }> {
    const statements: string[] = [];
    const kept: string[] = [];
    let cleared = 0;
    let givenUp = 0;
    for (const day of await this.expired(EVENTS, before)) {
      // The four tables' days share their bounds and their names' ending (`_p20261128`, `_before`).
      // A day with an event the relay has not published yet is kept whole: dropping it would lose it.
      const ending = day.name.slice(EVENTS.table.length);
      const pool = await this.pool();
      const { rows } = await pool.query<{ unpublished: boolean }>(`SELECT EXISTS (SELECT 1 FROM outbox_unpublished q JOIN ${day.name} o ON o.id = q.id) AS unpublished`);
      if (rows[0].unpublished) {
        kept.push(day.name);
        continue;
      }
      // Held by some tenants' unfinished deliveries: kept for them alone (held-history-days.ts).
      const heldDay = new HeldHistoryDay(pool, ending);
      const now = held?.now ?? new Date();
      const noticeMs = held?.noticeMs ?? 0;
      if ((await heldDay.holdingTenants(now, noticeMs)).length > 0) {
        if (held) {
          cleared += await heldDay.clearOthers(now, noticeMs);
          if (day.to <= held.giveUpBefore.getTime()) givenUp += await heldDay.giveUp(now);
        }
        kept.push(day.name);
        continue;
      }
      for (const table of WEBHOOK_HISTORY) statements.push(...(await this.drop(table, `${table.table}${ending}`)));
      await heldDay.forget();
    }
    return held ? { statements, kept, cleared, givenUp } : { statements, kept };
  }

  async dropSessionDaysBefore(before: Date): Promise<string[]> {
    const statements: string[] = [];
    for (const day of await this.expired(SESSIONS, before)) statements.push(...(await this.drop(SESSIONS, day.name)));
    return statements;
  }

  private async expired(table: HistoryTable, before: Date): Promise<Partition[]> {
    return (await this.partitions(table)).filter((p) => Number.isFinite(p.to) && p.to <= before.getTime());
  }

  private async drop(table: HistoryTable, partition: string): Promise<string[]> {
    const found = (await this.partitions(table)).find((p) => p.name === partition);
    const detach = found ? `ALTER TABLE ${table.table} DETACH PARTITION ${partition} ${found.detaching ? 'FINALIZE' : 'CONCURRENTLY'}` : null;
    const drop = `DROP TABLE IF EXISTS ${partition}`;
    // DETACH … CONCURRENTLY may not run in a transaction, and takes no lock that stops reads or writes.
    if (detach) await (await this.pool()).query(detach);
    await this.briefly(drop);
    return detach ? [detach, drop] : [drop];
  }
}
