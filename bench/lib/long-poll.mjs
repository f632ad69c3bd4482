// The event feed's long poll (issue 46): 1,000 consumers parked on GET /v0/events?order=asc&wait=30
// (1,000 tenants, one consumer each), then 200 events/s made through the API (a brand each, round
// the tenants). Measures what the parked reads cost the API in resident memory (with them parked
// beside before), and each event's time from its 201 to its consumer's answer.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { BASE, ROOT } from './services.mjs';
import { quantile, round } from './stats.mjs';

const CONSUMERS = 1000;
const EVENTS_PER_SECOND = 200;

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function request(method, path, key, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${BASE}${path}`, { method, agent, headers: { 'x-api-key': key, ...(body && { 'content-type': 'application/json' }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Tenants with a key each, written straight to PostgreSQL (a thousand CLI runs would take minutes). */
async function tenantsWithKeys(databaseUrl, count) {
  const { newTypeId } = createRequire(import.meta.url)(join(ROOT, 'dist', 'domain', 'shared', 'type-id.js'));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tenants = Array.from({ length: count }, (_, i) => {
      const key = `lp_${randomBytes(32).toString('base64url')}`;
      return { tenantId: newTypeId('tenant'), keyId: newTypeId('apikey'), key, hash: createHash('sha256').update(key).digest('hex'), name: `long poll ${i}` };
    });
    await client.query(
      `INSERT INTO tenants (id, name, created_at) SELECT * FROM unnest($1::text[], $2::text[]) AS t(id, name) CROSS JOIN LATERAL (SELECT now()) n`,
      [tenants.map((t) => t.tenantId), tenants.map((t) => t.name)],
    );
    await client.query(
      `INSERT INTO api_keys (id, tenant_id, key_hash, display_prefix, created_at) SELECT id, tenant_id, key_hash, left(key_hash, 11), now() FROM unnest($1::text[], $2::text[], $3::text[]) AS k(id, tenant_id, key_hash)`,
      [tenants.map((t) => t.keyId), tenants.map((t) => t.tenantId), tenants.map((t) => t.hash)],
    );
    return tenants;
  } finally {
    await client.end();
  }
}

const rssMb = (pid) => round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);

export async function benchLongPoll({ services, options, log, apiPid }) {
  const worker = await services.startService('worker', 1, { DATABASE_POOL_MAX: '8' });
  try {
    const tenants = await tenantsWithKeys(options.databaseUrl, CONSUMERS);
    const answeredAt = new Map();
    const arrivedAt = new Map();
    let errors = 0;
    let stopping = false;
    // Each consumer reads from the feed's end (its first read, without wait) and then parks.
    // A request that fails (a reset connection) is counted in `errors`, never left unhandled:
    // a POST rejected while the loop below was still sending (before Promise.all held it) ended the run.
    const consumers = tenants.map(async (tenant) => {
      const first = await request('GET', '/v0/events?order=asc&limit=100', tenant.key).catch(() => ({ status: 0 }));
      if (first.status !== 200) return void (errors += 1);
      let cursor = JSON.parse(first.body).nextCursor;
      while (!stopping) {
        const answer = await request('GET', `/v0/events?order=asc&wait=30&cursor=${cursor}`, tenant.key).catch(() => ({ status: 0 }));
        if (answer.status !== 200) {
          errors += 1;
          continue;
        }
        const page = JSON.parse(answer.body);
        const at = performance.now();
        for (const event of page.items) arrivedAt.set(event.data.brandId, at);
        cursor = page.nextCursor;
      }
    });
    const idleRss = rssMb(apiPid);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const parkedRss = rssMb(apiPid);
    log(`long poll: ${CONSUMERS} consumers parked; API resident ${idleRss} → ${parkedRss} MB`);

    // The first second's events are a warm-up, not counted, as in every open-loop measurement
    // here: in the first 600 ms of a cold process (JIT, pools, the first relay rounds) they took
    // up to half a second, and set the p99 of a 10 s run alone.
    const warmUp = EVENTS_PER_SECOND;
    const total = warmUp + EVENTS_PER_SECOND * options.durationSeconds * 2;
    const started = performance.now();
    const made = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / EVENTS_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const tenant = tenants[i % tenants.length];
      const counted = i >= warmUp;
      made.push(
        request('POST', '/v0/brands', tenant.key, JSON.stringify({ name: `Polled ${i}`, preferredAppearance: 'light', themeLight: {}, themeDark: {} })).then((res) => {
          if (res.status !== 201) return void (errors += 1);
          if (counted) answeredAt.set(JSON.parse(res.body).brandId, performance.now());
        }, () => void (errors += 1)),
      );
    }
    await Promise.all(made);
    const deadline = performance.now() + 10_000;
    // Until every counted event reached its consumer (the warm-up's arrivals are in arrivedAt too).
    const pending = () => [...answeredAt.keys()].some((id) => !arrivedAt.has(id));
    while (pending() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const latencies = [...answeredAt].filter(([id]) => arrivedAt.has(id)).map(([id, at]) => Math.max(0, arrivedAt.get(id) - at)).sort((a, b) => a - b);
    stopping = true;
    if (process.env.BENCH_LONG_POLL_DEBUG) {
      const slow = [...answeredAt].filter(([id]) => arrivedAt.has(id)).map(([id, at]) => [Math.round(at - started), Math.round(arrivedAt.get(id) - at)]).sort((a, b) => b[1] - a[1]).slice(0, 40);
      log(`long poll, slowest (ms after start, ms): ${JSON.stringify(slow)}`);
    }
    const summary = {
      consumers: CONSUMERS,
      eventsPerSecond: EVENTS_PER_SECOND,
      events: answeredAt.size,
      delivered: latencies.length,
      p50Ms: round(quantile(latencies, 0.5) ?? 0),
      p99Ms: round(quantile(latencies, 0.99) ?? 0),
      maxMs: round(latencies.at(-1) ?? 0),
      errors,
      apiRssIdleMb: idleRss,
      apiRssParkedMb: parkedRss,
    };
    log(`long poll: ${summary.delivered} of ${summary.events} events reached their consumer; 201 → consumer p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms, max ${summary.maxMs} ms; errors ${errors}`);
    // The consumers' last reads end with the API (SIGTERM answers them); their loops stop then.
    void Promise.allSettled(consumers);
    return summary;
  } finally {
    await services.stopProcess(worker);
  }
}
