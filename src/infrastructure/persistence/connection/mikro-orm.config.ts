import { defineConfig, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { MIGRATIONS } from '../migrations';
import { releaseDeadCheckouts } from './pool-guard';
import { ENTITIES } from '../entities';
import { UNMAPPED_TABLES } from '../entities/schema-exceptions';
import { SchemaNamingStrategy } from '../entities/schema-naming';

// Every table is an entity (persistence/entities, decisions.md 183): the map of the schema that
// the migrations are held to (the schema-drift test) and that new migrations are made from
// (`npm run migration:create`). The hot paths run their statements without the unit of work.

/**
 * How a pool's named statements are planned (PostgreSQL's plan_cache_mode).
 * - `kept` (the API, the CLI): planned once per connection for any parameters. Left to choose,
 *   PostgreSQL planned a list over the history kept by day afresh at every call whenever a range
 *   parameter (a cursor, `createdAfter`) made the kept plan look dearer, and planning a table of
 *   47 daily partitions cost 3.6 ms of a 4.2 ms page of events (0.57 ms kept). The lists are
 *   written for plans that do not depend on their values, and the days a parameter rules out are
 *   still skipped as each statement starts.
 * - `per-call` (the worker): planned at every call with its values. The worker's hot statements
 *   name their events' ids (`event_id = ANY(…)`), so PostgreSQL plans only their days (mostly
 *   one: 0.3 ms) and locks only those. A plan kept from when today's day was empty read that day
 *   by a sequential scan for as long as the plan lived: each record of a drain read the whole
 *   day, 6–8 ms a statement, until a vacuum's statistics made PostgreSQL plan again
 *   (docs/decisions.md 147). Its sessions also price a page read by an index as PostgreSQL's
 *   guidance for data in memory or on SSD does (random_page_cost 1.1, not 4): at 4, a per-call
 *   plan read a day filling up, or the relay's queue, whole rather than look up 20 to 200 rows
 *   by their keys, 1–4 ms a statement instead of 0.1–1 (decisions.md 155).
 * - `kept-lookups` (the worker's record of attempts, RecordSession): planned once per connection,
 *   with no sequential scan, hash or merge join and no materialising to choose from, so that a
 *   statement whose rows are each found by equality with a key can only be planned as look-ups
 *   by a key, whatever the statistics said when its plan was made (decisions.md 157).
 */
export type PlanKeeping = 'kept' | 'per-call' | 'kept-lookups';

/** The planner's settings of a pool's sessions, by PlanKeeping. */
const PLANNER_SETTINGS: Record<PlanKeeping, string> = {
  kept: '-c plan_cache_mode=force_generic_plan',
  'per-call': '-c plan_cache_mode=force_custom_plan -c random_page_cost=1.1',
  'kept-lookups': '-c plan_cache_mode=force_generic_plan -c random_page_cost=1.1 -c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off -c enable_material=off',
};

/**
 * `statementTimeoutMs` bounds every statement on the pool's connections (PostgreSQL's
 * statement_timeout): the API's and worker's pools have it, so no request or attempt can hang on
 * the database past it; migrations and the operator CLI run without one.
 */
export function createOrmConfig(databaseUrl: string, poolMax: number, statementTimeoutMs?: number, plans: PlanKeeping = 'kept') {
  return defineConfig({
    driver: PostgreSqlDriver,
    clientUrl: databaseUrl,
    entities: ENTITIES,
    namingStrategy: SchemaNamingStrategy,
    // What the entities leave to the migrations, each with its reason: entities/schema-exceptions.ts.
    schemaGenerator: { skipTables: UNMAPPED_TABLES.map((table) => table.pattern), ignoreTriggers: true, ignoreRoutines: true },
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    // A request waits at most 5 s for a connection, then fails as "unavailable" (503), not forever.
    // A connection cut inside a transaction gives its pool slot back (pool-guard.ts says why).
    // PostgreSQL looks every second for a client that has gone (a killed process, a cut
    // connection) while a statement of it runs, e.g. one waiting for a lock, and ends its session:
    // its transaction's locks, an Idempotency-Key's hold among them, are free within that second
    // instead of when the statement ends (client_connection_check_interval, PostgreSQL 14+). A
    // peer that vanished without closing (a silent partition) is found by TCP keepalives within
    // about 25 s instead of the system's two hours.
    // Plans kept or made per call: PlanKeeping above.
    driverOptions: {
      connectionTimeoutMillis: 5000,
      options:
        `-c client_connection_check_interval=1000 -c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3 ${PLANNER_SETTINGS[plans]}`,
      keepAlive: true,
      ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
      onPoolCreated: releaseDeadCheckouts,
    },
    forceUtcTimezone: true,
    // The ORM never logs: queries can hold key hashes and customer data.
    debug: false,
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'schema_migrations',
      snapshot: false,
      snapshotOnMigrate: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
  });
}
