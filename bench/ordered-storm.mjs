// `npm run bench:ordered-storm`: what one tenant's ordered chains cost another tenant (issue 70).
// Tenant A has 100 subscriptions with `ordering: "page"` to a receiver that answers 500, and makes
// 30 versions a second of one page for 150 s (4,500 versions: 450,000 deliveries waiting behind
// 100 held turns). Tenant B PATCHes a brand every second; each change's 200 → arrival at B's
// receiver is kept, and printed per 20 s window (p50, max) with the deliveries A has waiting.
// The production build, a database of its own, the local Redis; everything on loopback.
// Options: --seconds N (150), --rate N (30 versions a second), --subscriptions N (100).
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { recreateDatabase } from './lib/database.mjs';

const ROOT = join(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const SECONDS = arg('seconds', 150);
const RATE = arg('rate', 30);
const SUBSCRIPTIONS = arg('subscriptions', 100);
const WINDOW_MS = 20_000;
const PORT = 3931;
const BASE = `http://127.0.0.1:${PORT}`;
const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/landing_bench_ordered_storm';
const env = {
  ...process.env,
  DATABASE_URL,
  REDIS_URL: 'redis://127.0.0.1:6379',
  QUEUE_PREFIX: '{ordered-storm}',
  SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  METRICS_ENABLED: 'false',
  RATE_LIMIT_MAX: '1000000',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_SUBSCRIPTIONS_MAX: String(SUBSCRIPTIONS + 1),
  PORT: String(PORT),
};

const cli = (...argv) => {
  const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...argv, '--json'], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cli ${argv[0]}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
};

/** A receiver on 127.0.0.1 answering `status`; `onEvent` sees each body. */
async function receiver(status, onEvent = () => {}) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      onEvent(JSON.parse(Buffer.concat(chunks).toString('utf8')), Date.now());
      res.writeHead(status).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, close: () => new Promise((resolve) => server.close(resolve)) };
}

function startService(role) {
  const child = spawn(process.execPath, ['--max-old-space-size=256', join(ROOT, 'dist', 'main.js')], { cwd: ROOT, env: { ...env, SERVICE_ROLE: role }, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes(role === 'api' ? 'API listening' : 'webhook worker started') && resolve());
    child.on('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
  return { child, ready };
}

const call = async (key, method, path, body) => {
  const res = await fetch(`${BASE}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

await recreateDatabase(DATABASE_URL);
cli('migrate');
const a = cli('tenant:create', '--name', 'A');
const keyOfA = cli('api-key:create', '--tenant', a.tenantId).apiKey;
const groupOfA = cli('page-group:create', '--tenant', a.tenantId, '--name', 'storm');
const b = cli('tenant:create', '--name', 'B');
const keyOfB = cli('api-key:create', '--tenant', b.tenantId).apiKey;

const changed = new Map(); // B's brand name → when its PATCH answered 200
const latencies = []; // [answeredAt, ms]
const failing = await receiver(500);
const healthy = await receiver(204, (event, at) => {
  const answered = event.type === 'brand.updated' ? changed.get(event.data.name) : undefined;
  if (answered !== undefined) latencies.push([answered, at - answered]);
});
const api = startService('api');
const worker = startService('worker');
try {
  await Promise.all([api.ready, worker.ready]);
  for (let i = 0; i < SUBSCRIPTIONS; i++) await call(keyOfA, 'POST', '/v0/webhook_subscriptions', { url: `${failing.url}/${i}`, events: ['page.version.created'], ordering: 'page' });
  await call(keyOfB, 'POST', '/v0/webhook_subscriptions', { url: healthy.url, events: ['brand.updated'] });
  const theme = {};
  const brand = await call(keyOfB, 'POST', '/v0/brands', { name: 'B', preferredAppearance: 'system', themeLight: theme, themeDark: theme });
  const page = await call(keyOfA, 'POST', `/v0/page_groups/${groupOfA.pageGroupId}/pages`);
  const started = Date.now();
  const end = started + SECONDS * 1000;
  let versions = 0;
  let versionFailures = 0;
  const tenantA = setInterval(() => {
    versions++;
    call(keyOfA, 'POST', `/v0/page_groups/${groupOfA.pageGroupId}/pages/${page.pageId}/versions`, {}).catch(() => versionFailures++);
  }, 1000 / RATE);
  for (let i = 0; Date.now() < end; i++) {
    const tick = Date.now();
    const name = `B ${i}`;
    await call(keyOfB, 'PATCH', `/v0/brands/${brand.brandId}`, { name });
    changed.set(name, Date.now());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() - tick))));
  }
  clearInterval(tenantA);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  const waiting = (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'waiting'`)).rows[0].n;
  await db.end();
  console.log(`ordered storm: ${SUBSCRIPTIONS} ordered subscriptions of A to a receiver answering 500, ${versions} versions of one page in ${SECONDS} s (${versionFailures} refused), ${waiting} deliveries waiting at the end`);
  console.log(`tenant B: ${changed.size} brand changes, ${latencies.length} arrived; 200 → arrival by 20 s window:`);
  for (let from = 0; from < SECONDS * 1000; from += WINDOW_MS) {
    const inWindow = latencies.filter(([at]) => at - started >= from && at - started < from + WINDOW_MS).map(([, ms]) => ms).sort((x, y) => x - y);
    const sent = [...changed.values()].filter((at) => at - started >= from && at - started < from + WINDOW_MS).length;
    console.log(`  ${String(from / 1000).padStart(3)}–${String((from + WINDOW_MS) / 1000).padStart(3)} s: ${inWindow.length}/${sent} arrived, p50 ${quantile(inWindow, 0.5) ?? '–'} ms, max ${inWindow.at(-1) ?? '–'} ms`);
  }
} finally {
  for (const service of [api, worker]) service.child.kill('SIGTERM');
  await Promise.all([failing.close(), healthy.close()]);
}
