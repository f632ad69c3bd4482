import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';

// clock_timestamp(), not now(): the time of the read itself, not of its transaction's start.
const NOW_MS = typedStatement()(() => schema.selectNoFrom(sql<string>`(extract(epoch FROM clock_timestamp()) * 1000)::bigint`.as('ms')));

/** The database's clock in epoch ms: the one clock every process compares times on (DatabaseClock). */
export async function databaseNowMs(em: EntityManager): Promise<number> {
  const [row] = await NOW_MS.rows(em, {});
  return Number(row.ms);
}
