import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from './mikro-orm.config';

/**
 * The worker's own connection for the record of attempts, on which PostgreSQL keeps its plans
 * (PlanKeeping 'kept-lookups'): the worker's pool plans every statement at each call, which its
 * other statements need (decisions.md 147), and the record's planning was a quarter of its cost
 * (decisions.md 157). One connection is enough: one record is written at a time
 * (SqlDeliveryClaims).
 */
export class RecordSession {
  private constructor(readonly orm: MikroORM) {}

  static async open(databaseUrl: string, statementTimeoutMs?: number): Promise<RecordSession> {
    return new RecordSession(await MikroORM.init(createOrmConfig(databaseUrl, 1, statementTimeoutMs, 'kept-lookups')));
  }

  close(): Promise<void> {
    return this.orm.close(true);
  }
}
