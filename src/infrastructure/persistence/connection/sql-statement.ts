import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Transaction } from 'kysely';
import type { Pool } from 'pg';

/**
 * The one way the adapters run SQL of their own. `text` numbers its parameters $1, $2…, and the
 * values travel bound, never inlined.
 * - Inside a unit of work (the context EntityManager is in a transaction) the statement runs on
 *   that transaction's connection: it sees the transaction's writes and holds its locks.
 * - Outside one it runs on the ORM's pool as a named prepared statement: PostgreSQL parses and
 *   plans it once per connection instead of on every call (docs/performance-analysis.md). The
 *   name comes from the text, so one text is always one statement.
 */
export async function sqlQuery<T>(em: EntityManager, text: string, values: readonly unknown[] = []): Promise<{ rows: T[]; rowCount: number }> {
  const transaction = em.getTransactionContext<Transaction<unknown>>();
  if (transaction) {
    const result = await transaction.executeQuery<T>(CompiledQuery.raw(text, [...values]));
    return { rows: result.rows, rowCount: Number(result.numAffectedRows ?? result.rows.length) };
  }
  const pool = keptPool(em) ?? (await freshPool(em));
  const result = await pool.query({ name: statementName(text), text, values: [...values] });
  return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
}

// The ORM's pool, kept per connection: asking the ORM for it each time (it checks that it is
// connected, then answers asynchronously) was a MikroORM share of every statement in the API's
// profile. A pool that has ended (the ORM closed and connected again) is asked for afresh.
const pools = new WeakMap<object, Pool>();
function keptPool(em: EntityManager): Pool | undefined {
  const kept = pools.get(em.getConnection());
  return kept && !(kept as Pool & { ending?: boolean }).ending ? kept : undefined;
}

async function freshPool(em: EntityManager): Promise<Pool> {
  const connection = em.getConnection();
  const pool = (await connection.getNativeClient()) as Pool;
  pools.set(connection, pool);
  return pool;
}

/** The rows of one statement (see sqlQuery). */
export async function sqlRows<T>(em: EntityManager, text: string, values: readonly unknown[] = []): Promise<T[]> {
  return (await sqlQuery<T>(em, text, values)).rows;
}

const names = new Map<string, string>();
/** Texts are fixed in the code; past this many, a text made per call would be a bug: it runs unnamed. */
const MAX_NAMED = 1000;

/** A prepared statement's name: a digest of its text (PostgreSQL keeps at most 63 bytes of it). */
function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED) return undefined;
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Numbers values in the order a text places them, for texts with optional parts:
 * `const p = sqlParams(); const text = \`… id = ${p(id)}\`; sqlRows(em, text, p.values)`.
 */
export function sqlParams(): ((value: unknown) => string) & { values: unknown[] } {
  const values: unknown[] = [];
  return Object.assign((value: unknown) => `$${values.push(value)}`, { values });
}

/**
 * The rows a page of a list over the history asks for, written into its statement as a constant:
 * `limit + 1` rounded up to one of a few sizes (toSlice cuts what is past the page). With the
 * LIMIT a parameter, PostgreSQL's generic plan of a named statement guesses a tenth of the table,
 * costs more than a plan made for the values, and so every call is planned afresh; on a table kept
 * by day that planning (every day's indexes) cost 2.4 ms of a 3.1 ms page of events. With a
 * constant the generic plan is kept (0.7 ms). A few sizes keep the statement texts few.
 */
export function pageRows(limit: number): number {
  return PAGE_ROWS.find((rows) => rows >= limit + 1) ?? limit + 1;
}
const PAGE_ROWS = [11, 21, 51, 101];

/**
 * For adapters whose statements need the unit of work's transaction (a row or advisory lock held
 * to the commit, a count and the write it guards): outside one, a lock would end with its own
 * statement and the guard would not hold, so it is a programming error.
 */
export function requireTransaction(em: EntityManager, what: string): void {
  if (!em.getTransactionContext()) throw new Error(`${what} must run inside a unit of work (UnitOfWork.run)`);
}
