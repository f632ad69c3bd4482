import { sql } from 'kysely';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';

/**
 * What the operational gauges show, in one round trip at scrape: the outbox's backlog, the age of
 * its oldest event in seconds (null when none waits) and the unfinished deliveries. Counts come
 * as PostgreSQL's bigint text.
 */
export const OPERATIONAL_COUNTS = typedStatement()(() =>
  schema.selectNoFrom((eb) => [
    eb.selectFrom('outbox_unpublished').select(sql<string>`count(*)`.as('n')).as('backlog'),
    eb
      .selectFrom(eb.selectFrom('outbox_unpublished').select('id').orderBy('id').limit(sql.lit(1)).as('q'))
      .innerJoin('outbox_events as o', 'o.id', 'q.id')
      .select(sql<string | null>`extract(epoch FROM now() - min(o.created_at))`.as('age'))
      .as('oldest'),
    eb.selectFrom('webhook_deliveries').select(sql<string>`count(*)`.as('n')).where('status', 'in', [sql.lit<'pending'>('pending'), sql.lit<'sending'>('sending')]).as('pending'),
  ]),
);
