import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../../application/shared/logger.port';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';

/** How often a holder's row is refreshed. */
const BEAT_MS = 20_000;
/**
 * A row older than this is a process gone (killed, or its database cut away): the key cache's
 * principals live 60 s (redis-api-key.cache.ts), so past a minute and a half with no holder no
 * copy that a revocation could have missed is left.
 */
export const HOLDER_FRESH_MS = 90_000;
/** A holder's row this old is deleted by the next process that starts (far past HOLDER_FRESH_MS). */
export const FORGOTTEN_AFTER_MS = 3_600_000;

// Times are the database's (now()): every process compares them on one clock.
const olderThan = (seconds: number) => sql<Date>`now() - make_interval(secs => ${seconds})`;
const FORGET = typedStatement<{ seconds: number }>()((arg) => schema.deleteFrom('api_key_cache_holders').where('seen_at', '<', olderThan(arg('seconds'))));
const BEAT = typedStatement<{ holder: string }>()((arg) =>
  schema
    .insertInto('api_key_cache_holders')
    .values({ holder: arg('holder'), seen_at: sql<Date>`now()` })
    .onConflict((oc) => oc.column('holder').doUpdateSet({ seen_at: sql<Date>`now()` })),
);
const LEAVE = typedStatement<{ holder: string }>()((arg) => schema.deleteFrom('api_key_cache_holders').where('holder', '=', arg('holder')));
const ANY_FRESH = typedStatement<{ seconds: number }>()((arg) =>
  schema.selectFrom('api_key_cache_holders').select(sql<number>`1`.as('one')).where('seen_at', '>', olderThan(arg('seconds'))).limit(sql.lit(1)),
);

/**
 * An API process's registration as a holder of the Redis key cache (api_key_cache_holders):
 * written at start, refreshed every 20 s, deleted at a clean stop. A refresh that fails is logged
 * and tried again at the next beat; it never stops the API.
 */
export async function registerKeyCacheHolder(orm: MikroORM, logger: Logger): Promise<{ holder: string; stop(): Promise<void> }> {
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  // Rows of processes gone without a clean stop (killed) are no holders after HOLDER_FRESH_MS;
  // each start removes those an hour old, so the table holds at most an hour of starts.
  await FORGET.count(orm.em.fork(), { seconds: FORGOTTEN_AFTER_MS / 1000 });
  const beat = () => BEAT.count(orm.em.fork(), { holder });
  await beat();
  const timer = setInterval(() => beat().catch((error: Error) => logger.warn({ error: error.message }, 'key cache holder: refresh failed')), BEAT_MS);
  timer.unref();
  return {
    holder,
    stop: async () => {
      clearInterval(timer);
      await LEAVE.count(orm.em.fork(), { holder }).catch(() => undefined);
    },
  };
}

/** Whether any process has held the key cache within HOLDER_FRESH_MS. */
export async function keyCacheHeld(orm: MikroORM): Promise<boolean> {
  const rows = await ANY_FRESH.rows(orm.em.fork(), { seconds: HOLDER_FRESH_MS / 1000 });
  return rows.length > 0;
}
