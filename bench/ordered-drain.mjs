// `npm run bench:ordered-drain`: the ordered drain beside the unordered one in the same run, in a
// few minutes rather than the full bench's hour: 100 pages × 10 versions made while no worker
// runs, then one worker (the production build) drains them to a receiver on 127.0.0.1 answering
// 204; deliveries a second after the first 100, rounds alternating unordered and ordered
// (`--rounds N`, 2; `--versions V` a page, 10: at 10 the drain lasts under a second and a new
// worker's start weighs in it). Prints each round and the ratio of the sums. BUILD_ROOT measures another
// build (its dist/ and node_modules) with this script.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { recreateDatabase } from './lib/database.mjs';

const ROOT = process.env.BUILD_ROOT ?? join(import.meta.dirname, '..');
const PORT = 3933;
const BASE = `http://127.0.0.1:${PORT}`;
const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/landing_bench_ordered_drain';
const env = { ...process.env, DATABASE_URL, REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: `{od${Date.now()}}`, SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'), NODE_ENV: 'production', LOG_LEVEL: 'warn', METRICS_ENABLED: 'false', RATE_LIMIT_MAX: '1000000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', PORT: String(PORT) };
const cli = (...argv) => JSON.parse(spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...argv, '--json'], { cwd: ROOT, env, encoding: 'utf8' }).stdout.trim().split('\n').pop());
let count = 0; let waiters = [];
const server = createServer((req, res) => { req.resume(); req.on('end', () => { count++; res.writeHead(204).end(); waiters = waiters.filter((w) => !(count >= w.n && (w.r(), true))); }); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const until = (n) => new Promise((r) => (count >= n ? r() : waiters.push({ n, r })));
const start = (role) => { const c = spawn(process.execPath, ['--max-old-space-size=256', join(ROOT, 'dist', 'main.js')], { cwd: ROOT, env: { ...env, SERVICE_ROLE: role, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] }); const ready = new Promise((r) => c.stdout.on('data', (d) => String(d).includes(role === 'api' ? 'API listening' : 'webhook worker started') && r())); return { c, ready }; };
await recreateDatabase(DATABASE_URL);
cli('migrate');
const t = cli('tenant:create', '--name', 'A'); const key = cli('api-key:create', '--tenant', t.tenantId).apiKey; const g = cli('page-group:create', '--tenant', t.tenantId, '--name', 'g');
const headers = { 'x-api-key': key, 'content-type': 'application/json' };
const api = start('api'); await api.ready;
const sub = await (await fetch(`${BASE}/v0/webhook_subscriptions`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/h`, events: ['page.version.created'] }) })).json();
const pages = `${BASE}/v0/page_groups/${g.pageGroupId}/pages`;
const results = {};
const at = process.argv.indexOf('--rounds');
const rounds = at > 0 ? Number(process.argv[at + 1]) : 2;
const vat = process.argv.indexOf('--versions');
const versions = vat > 0 ? Number(process.argv[vat + 1]) : 10;
for (const ordering of Array.from({ length: rounds }, () => ['none', 'page']).flat()) {
  await fetch(`${BASE}/v0/webhook_subscriptions/${sub.id}`, { method: 'PATCH', headers, body: JSON.stringify({ ordering }) });
  const ids = [];
  while (ids.length < 100) ids.push(...(await Promise.all(Array.from({ length: 50 }, () => fetch(pages, { method: 'POST', headers }).then(async (r) => (await r.json()).pageId)))));
  for (let v = 2; v <= versions; v++) for (let at = 0; at < 100; at += 50) await Promise.all(ids.slice(at, at + 50).map((id) => fetch(`${pages}/${id}/versions`, { method: 'POST', headers, body: '{}' })));
  const base = count;
  const w = start('worker'); await w.ready;
  await until(base + 100); const t0 = Date.now(); await until(base + 100 * versions); const s = (Date.now() - t0) / 1000;
  (results[ordering] ??= []).push(Math.round((100 * versions - 100) / s));
  w.c.kill('SIGTERM'); await new Promise((r) => w.c.on('exit', r));
}
console.log(JSON.stringify(results), 'ratio', (results.page.reduce((a, b) => a + b) / results.none.reduce((a, b) => a + b)).toFixed(2));
api.c.kill('SIGTERM'); server.close();
