import type { MikroORM } from '@mikro-orm/postgresql';
import { sqlRows } from './sql-statement';

/**
 * For the transaction of a read that must walk an index in its order, one entry per day of
 * history (a Merge Append with LIMIT 1), not sort what it found: a young day's statistics made the
 * planner sort a whole backlog instead. A sort left in a plan then costs ten billion, far past
 * jit_above_cost: without `jit = off` PostgreSQL compiled such a statement at every call (70 ms
 * for the turn locks' sort).
 */
export const PRICE_OUT_SORTS_SQL = `SELECT set_config('enable_sort', 'off', true), set_config('jit', 'off', true)`;

/** The rows of one such read (PRICE_OUT_SORTS_SQL), in a transaction of its own. */
export function rowsWalkingIndexes<T>(orm: MikroORM, text: string, values: readonly unknown[]): Promise<T[]> {
  return orm.em.fork().transactional(async (em) => {
    await sqlRows(em, PRICE_OUT_SORTS_SQL);
    return sqlRows<T>(em, text, values);
  });
}
