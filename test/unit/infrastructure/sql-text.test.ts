import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder, REPOSITORY_ROOT as ROOT } from '../../support/repository-files';

// Issue 72, item 3: statements are typed from the entities (typed/statement.ts); a statement that
// cannot be (decisions.md 184) is SQL text in a file named `*.sql.ts` that opens with why. Beside
// those and the migrations, only the files below hold SQL text, each for the reason given.
const SQL_TEXT_ELSEWHERE: Record<string, string> = {
  'src/infrastructure/persistence/history/history-layout.ts': 'partition upkeep: the days of the history tables are made, attached and dropped by DDL',
  'src/infrastructure/persistence/history/history-bound.ts': 'partition upkeep: whether the history is laid out by day, read from the catalog',
  'src/infrastructure/persistence/history/history-tables.ts': 'partition upkeep: CREATE TABLE … PARTITION OF for a day, its bounds from TypeIDs',
  'src/infrastructure/persistence/history/sql-history-days.ts': 'partition upkeep: the days read from the catalog, detached and dropped by DDL',
  'src/infrastructure/persistence/history/held-history-days.ts': 'retention of a day: statements on the day partition named at run time, by ctid in steps',
  'src/infrastructure/persistence/seeding/sql-bulk-seeder.ts': 'benchmark data: INSERT … SELECT FROM unnest of parameter arrays, a batch per statement',
  'src/infrastructure/persistence/seeding/seed-catalogue.ts': 'benchmark data: brands, page groups and pages, as the bulk seed above',
  'src/infrastructure/persistence/seeding/seed-sessions.ts': 'benchmark data: page sessions and their UTM values, as the bulk seed above',
  'src/infrastructure/persistence/seeding/seed-session-counters.ts': "benchmark data: the seeded sessions' counters, set-based over all of them",
  'src/infrastructure/persistence/seeding/seed-deliveries.ts': 'benchmark data: the webhook history, as the bulk seed above',
  'src/infrastructure/persistence/connection/database-location.ts': 'the embedded default: CREATE DATABASE before any schema exists',
  'src/infrastructure/persistence/connection/database-readiness.probe.ts': 'readiness: SELECT 1 on a connection of the pool',
  'src/infrastructure/persistence/connection/pg-listener.ts': 'LISTEN on a connection of its own, and its keep-alive',
  'src/infrastructure/persistence/connection/index-walk.ts': 'set_config of the planner for one transaction',
  'src/infrastructure/persistence/outbox/relay-wake.ts': 'pg_notify on a fixed channel',
  'src/infrastructure/persistence/outbox/outbox.writer.ts': 'the outbox insert that the event-writing statements (*.sql.ts) embed',
  'src/infrastructure/persistence/entities/event-feed-entry.entity.ts': 'an index the entity declares as DDL (ON ONLY: the table is partitioned)',
  'src/interfaces/bench/raw-brand-list.ts': "the bench's baseline (b): a raw query, by definition",
  'src/interfaces/bench/raw-brand-write.ts': "the bench's baseline (b-w): a raw write, by definition",
};

const SQL = /[`'"]\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|LOCK|TRUNCATE)\s/;

function sourceFiles(): string[] {
  return filesUnder('src', (name) => name.endsWith('.ts'));
}

describe('SQL text in the source', () => {
  const files = sourceFiles();
  const withSql = files.filter((file) => !file.includes('/migrations/') && SQL.test(readFileSync(join(ROOT, file), 'utf8')));

  it('is only in *.sql.ts files and the files listed with their reason', () => {
    expect(withSql.filter((file) => !file.endsWith('.sql.ts') && !(file in SQL_TEXT_ELSEWHERE))).toEqual([]);
  });

  it('lists no file that holds none (the list stays the truth)', () => {
    expect(Object.keys(SQL_TEXT_ELSEWHERE).filter((file) => !withSql.includes(file))).toEqual([]);
  });

  it('opens every *.sql.ts file with why its statements are text', () => {
    const sqlFiles = files.filter((file) => file.endsWith('.sql.ts'));
    expect(sqlFiles.length).toBeGreaterThan(10);
    const head = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n').slice(0, 12).join('\n');
    expect(sqlFiles.filter((file) => !/\/\/ SQL text[^]*decisions\.md 184/.test(head(file)))).toEqual([]);
  });

  it('catches a statement written outside them (the check can fail)', () => {
    expect(SQL.test("await sqlRows(em, 'SELECT id FROM brands WHERE id = $1', [id]);")).toBe(true);
    expect(SQL.test("schema.selectFrom('brands').select('id')")).toBe(false);
  });
});
