import { MikroORM } from '@mikro-orm/postgresql';
import { typeIdTime } from '../../../domain/shared/type-id';
import { RecordSession } from '../connection/record-session';
import { sqlQuery } from '../connection/sql-statement';
import { dayStart } from '../history/history-tables';
import { AttemptRecord, RECORD_ATTEMPTS_SQL, recordDaySql, recordParameters, recordRows } from './delivery-attempts.sql';

/** PostgreSQL's undefined_table: a day with no table of its own (older than the days, or dropped). */
const NO_SUCH_TABLE = '42P01';

/**
 * Writes a group of attempts' records, in the order given, a statement for each of their events'
 * days (mostly one): aimed at the day's own tables on the RecordSession, whose plan of it is kept
 * (recordDaySql, decisions.md 157). The records of an event that has no day table of its own
 * (before the days were made, or a day since dropped, or an id that is not a TypeID) go through
 * the partitioned tables on the worker's pool, which plans each call; so do all records where
 * there is no session (a process other than the worker).
 */
export class DayRecords {
  /** Days found to have no table of their own: not tried again. */
  private readonly noTable = new Set<number>();

  constructor(
    private readonly session: RecordSession | null,
    private readonly orm: MikroORM,
  ) {}

  async write(records: readonly AttemptRecord[]): Promise<void> {
    const { session } = this;
    if (session === null) return this.throughPartitions(records);
    const days = new Map<number | null, AttemptRecord[]>();
    for (const record of records) {
      const time = typeIdTime('evt', record.eventId);
      const day = time === null ? null : dayStart(time);
      const key = day !== null && this.noTable.has(day) ? null : day;
      const group = days.get(key);
      if (group) group.push(record);
      else days.set(key, [record]);
    }
    for (const [day, group] of days) await (day === null ? this.throughPartitions(group) : this.inDay(session, day, group));
  }

  private async inDay(session: RecordSession, day: number, group: AttemptRecord[]): Promise<void> {
    try {
      await sqlQuery(session.orm.em, recordDaySql(day), [recordRows(group)]);
    } catch (error) {
      // Nothing was written: the statement failed as it was parsed.
      if ((error as { code?: string }).code !== NO_SUCH_TABLE) throw error;
      this.noTable.add(day);
      await this.throughPartitions(group);
    }
  }

  private async throughPartitions(group: readonly AttemptRecord[]): Promise<void> {
    await sqlQuery(this.orm.em, RECORD_ATTEMPTS_SQL, recordParameters(group));
  }
}
