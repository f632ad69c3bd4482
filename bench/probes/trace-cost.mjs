// What trace context costs per request and per attempt when nothing is exported, measured alone
// (the whole-service bench cannot see a few microseconds under its run-to-run noise): the API's
// SERVER span as server-span.middleware.ts makes it, and the attempt's span with its header as
// attempt-span.ts does, against the same work with the OpenTelemetry API left without a provider
// (no-op), in one process, rounds of each after a warm-up. Needs `npm run -s build`. Usage:
//   node bench/probes/trace-cost.mjs [iterations per round, default 200000] [rounds, default 5]
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '..', '..');
const { attemptSpan } = require(join(ROOT, 'dist', 'infrastructure', 'tracing', 'attempt-span.js'));
const { serverSpan } = require(join(ROOT, 'dist', 'interfaces', 'http', 'middleware', 'server-span.middleware.js'));
const { startTracing } = require(join(ROOT, 'dist', 'infrastructure', 'tracing', 'tracing.js'));

const iterations = Number(process.argv[2] ?? 200_000);
const rounds = Number(process.argv[3] ?? 5);
const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** A request and response as Express hands them to the middleware, reduced to what it reads. */
function request() {
  const listeners = [];
  const req = { method: 'POST', path: '/v0/page_groups/x/pages', protocol: 'http', headers: { traceparent, 'x-api-key': 'k' }, route: { path: '/v0/page_groups/:page_group_id/pages' } };
  const res = { statusCode: 201, once: (_event, listener) => listeners.push(listener) };
  return { req, res, close: () => listeners.forEach((l) => l()) };
}

function perRequest() {
  const started = process.cpuUsage();
  for (let i = 0; i < iterations; i++) {
    const { req, res, close } = request();
    serverSpan(req, res, () => undefined);
    close();
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / iterations;
}

async function perAttempt() {
  const result = { statusCode: 204, durationMs: 3, error: null };
  const input = { url: 'https://hooks.example/x?token=t', headers: { 'content-type': 'application/json' }, trace: { traceparent, tracestate: null } };
  const post = async () => result;
  const started = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await attemptSpan(input, post);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / iterations;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// First without a provider (what the code costs with tracing absent), then with it (a provider
// cannot be taken away again), each after a warm-up round so that neither runs on colder code.
perRequest();
await perAttempt();
const off = { request: [], attempt: [] };
const on = { request: [], attempt: [] };
for (let round = 0; round < rounds; round++) {
  off.request.push(perRequest());
  off.attempt.push(await perAttempt());
}
startTracing({});
perRequest();
await perAttempt();
for (let round = 0; round < rounds; round++) {
  on.request.push(perRequest());
  on.attempt.push(await perAttempt());
}
const us = (n) => `${n.toFixed(2)} µs`;
const addedPerRequest = median(on.request) - median(off.request);
const addedPerAttempt = median(on.attempt) - median(off.attempt);
process.stdout.write(
  `trace context, no exporter (${rounds} rounds of ${iterations}, CPU time, medians):\n` +
    `  per request: ${us(median(on.request))} with the provider, ${us(median(off.request))} without → ${us(addedPerRequest)} added\n` +
    `  per attempt: ${us(median(on.attempt))} with the provider, ${us(median(off.attempt))} without → ${us(addedPerAttempt)} added\n`,
);
process.stdout.write(`${JSON.stringify({ addedUsPerRequest: Math.round(addedPerRequest * 100) / 100, addedUsPerAttempt: Math.round(addedPerAttempt * 100) / 100 })}\n`);
