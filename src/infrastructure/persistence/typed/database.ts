import type { InferKyselyDB } from '@mikro-orm/postgresql';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { ENTITIES } from '../entities';

/**
 * The schema as Kysely types it, from the entities (decisions.md 183): table and column names as
 * PostgreSQL has them, each column's TypeScript type from its property. A statement built on it
 * fails `npm run typecheck` when it names a column or table the entities do not have.
 */
export type Database = InferKyselyDB<(typeof ENTITIES)[number]>;

/**
 * A Kysely that only compiles: statements are built and compiled here, typed by Database, and run
 * as today's named prepared statements by sqlQuery (connection/sql-statement.ts), in the caller's
 * transaction when there is one. Nothing connects through it.
 */
export const schema = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
