// `npm run bench:utm` (also the last step of `npm run bench`): what recording a session with a new
// UTM value costs as a group's distinct values grow to 50,000, and how large the UTM answer is.
// It drives the production code (dist/: the session repository and the UTM query) on a database
// of its own, so the same script measures any build of the service, before or after a change.
//   --sizes 10,1000,10000,50000   group sizes (distinct campaign values) to measure at
//   --sessions N                   new-value sessions recorded at each size (default 300)
//   --json                         print one JSON object on the last line of stdout
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { recreateDatabase } from './lib/database.mjs';

const ROOT = join(import.meta.dirname, '..');
const require = createRequire(join(ROOT, 'package.json'));
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const SIZES = flag('sizes', '10,1000,10000,50000').split(',').map(Number);
const SESSIONS = Number(flag('sessions', '300'));
const DB_URL = process.env.BENCH_UTM_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/landing_api_bench_utm';
const log = (line) => process.stderr.write(`${line}\n`);
// Campaign values as long as real ones with a tracking suffix: 60 characters.
const value = (n) => `spring-sale-2026-newsletter-variant-${String(n).padStart(24, '0')}`;

async function main() {
  const { MikroORM } = require('@mikro-orm/postgresql');
  const { createOrmConfig } = require(join(ROOT, 'dist/infrastructure/persistence/connection/mikro-orm.config.js'));
  const { migrate } = require(join(ROOT, 'dist/infrastructure/persistence/migrations/migrate.js'));
  const { SqlPageSessionRepository } = require(join(ROOT, 'dist/infrastructure/persistence/repositories/sql-page-session.repository.js'));
  const { SqlPageQueries } = require(join(ROOT, 'dist/infrastructure/persistence/queries/sql-page.queries.js'));
  const { PageSession } = require(join(ROOT, 'dist/domain/page/page-session.js'));
  const { MikroOrmUnitOfWork } = require(join(ROOT, 'dist/infrastructure/persistence/connection/mikro-orm-unit-of-work.js'));
  const { RequestContext } = require('@mikro-orm/postgresql');

  await recreateDatabase(DB_URL);
  const orm = await MikroORM.init(createOrmConfig(DB_URL, 2));
  await migrate(orm);
  const sql = new pg.Client({ connectionString: DB_URL });
  await sql.connect();
  const page = { tenantId: 'tenant_01jdutmscale0000000000000', pageGroupId: 'page_01jdutmscale0000000000000', id: 'pagevar_01jdutmscale000000000000' };
  await sql.query(`INSERT INTO tenants (id, name, created_at) VALUES ($1, 'utm at scale', now())`, [page.tenantId]);
  // Only the UTM endpoint's queries run here: no list reads the group, so its stored list item is left empty.
  await sql.query(`INSERT INTO page_groups (id, tenant_id, name, status, created_at, updated_at, view_head, view_tail) VALUES ($1, $2, 'g', 'published', now(), now(), '', '')`, [page.pageGroupId, page.tenantId]);
  await sql.query(`INSERT INTO pages (id, tenant_id, page_group_id, created_at, updated_at) VALUES ($1, $2, $3, now(), now())`, [page.id, page.tenantId, page.pageGroupId]);

  const results = [];
  let next = 0;
  for (const size of SIZES) {
    // Fill the group up to `size` distinct campaign values, older than anything recorded next.
    const have = Number((await sql.query(`SELECT count(*) AS n FROM page_group_utm_values WHERE page_group_id = $1`, [page.pageGroupId])).rows[0].n);
    if (size > have) {
      await sql.query(
        `INSERT INTO page_group_utm_values (page_group_id, kind, value) SELECT $1, 'campaign', 'filler-' || lpad(i::text, 53, '0') FROM generate_series($2::int, $3::int) i`,
        [page.pageGroupId, have + 1, size],
      );
    }
    await sql.query('VACUUM ANALYZE page_group_utm_values');
    // As RecordSession writes one: in a unit of work of its own request context.
    const repository = new SqlPageSessionRepository(orm.em);
    const unitOfWork = new MikroOrmUnitOfWork(orm.em);
    const started = process.hrtime.bigint();
    for (let i = 0; i < SESSIONS; i++) {
      const session = PageSession.record(page, { campaign: value(next++), source: 'newsletter' }, new Date());
      await RequestContext.create(orm.em, () => unitOfWork.run(() => repository.add(session)));
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const queries = new SqlPageQueries(orm.em.fork());
    const readStarted = process.hrtime.bigint();
    const first = await queries.utmParameters(page.tenantId, page.pageGroupId);
    const firstMs = Number(process.hrtime.bigint() - readStarted) / 1e6;
    const againStarted = process.hrtime.bigint();
    await queries.utmParameters(page.tenantId, page.pageGroupId);
    const againMs = Number(process.hrtime.bigint() - againStarted) / 1e6;
    const text = typeof first.text === 'string' ? first.text : JSON.stringify(first);
    const answer = JSON.parse(text);
    const distinct = Number((await sql.query(`SELECT count(*) AS n FROM page_group_utm_values WHERE page_group_id = $1 AND kind = 'campaign'`, [page.pageGroupId])).rows[0].n);
    const row = {
      distinctValues: distinct,
      sessionsPerSecond: Math.round(SESSIONS / seconds),
      msPerSession: Number(((seconds * 1000) / SESSIONS).toFixed(2)),
      answerBytes: Buffer.byteLength(`{"parameters":${text}}`),
      campaignsAnswered: answer.utm_campaigns.length,
      firstReadMs: Number(firstMs.toFixed(1)),
      nextReadMs: Number(againMs.toFixed(1)),
    };
    results.push(row);
    log(`  ${String(row.distinctValues).padStart(7)} values: ${String(row.sessionsPerSecond).padStart(5)} sessions/s (${row.msPerSession} ms each), answer ${row.answerBytes} bytes with ${row.campaignsAnswered} campaigns, read ${row.firstReadMs} ms then ${row.nextReadMs} ms`);
  }
  await sql.end();
  await orm.close(true);
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify({ sessionsEachSize: SESSIONS, sizes: results })}\n`);
}

log('UTM values at scale: sessions with a new campaign value each, into one group');
main().catch((error) => {
  log(`bench:utm failed: ${error.stack ?? error}`);
  process.exit(1);
});
