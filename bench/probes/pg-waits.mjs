// What PostgreSQL's active client sessions wait on, sampled every 10 ms while a benchmark runs:
//   node bench/probes/pg-waits.mjs [seconds] (BENCH_DATABASE_URL, default the bench database)
// Prints the count of samples per wait ("cpu" when running), then the moments when four or more
// sessions were active at once. It showed the write endpoints' commits waiting on the disk's
// fdatasync in their slow windows (IO:WALSync, LWLock:WALWrite), see docs/performance-analysis.md.
import pg from 'pg';

const seconds = Number(process.argv[2] ?? 10);
const client = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/landing_api_bench' });
await client.connect();
const totals = new Map();
const crowded = [];
const started = Date.now();
while (Date.now() - started < seconds * 1000) {
  const { rows } = await client.query(
    `SELECT coalesce(wait_event_type, 'cpu') || ':' || coalesce(wait_event, '-') AS wait, count(*)::int AS n
     FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend' GROUP BY 1`,
  );
  for (const row of rows) totals.set(row.wait, (totals.get(row.wait) ?? 0) + row.n);
  const active = rows.reduce((n, row) => n + row.n, 0);
  if (active >= 4) crowded.push(`${Date.now() - started} ms: ${rows.map((row) => `${row.wait}=${row.n}`).join(' ')}`);
  await new Promise((resolve) => setTimeout(resolve, 10));
}
await client.end();
process.stdout.write(`${JSON.stringify(Object.fromEntries([...totals].sort((x, y) => y[1] - x[1])))}\n${crowded.join('\n')}\n`);
