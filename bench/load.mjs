// Load generator, run as its own process (pinned to its own core by bench/run.mjs): reads one
// scenario as JSON from argv and prints the result as JSON. Maximum throughput is driven closed
// loop with 32 connections by wrk when the machine has it (C: it reads an 18 KB list response for
// a fraction of what autocannon spends, and the load generator shares its core with PostgreSQL),
// else by autocannon; a given rate by the open-loop generator: bench/open-loop.c where the machine
// can compile it (0.9–1.8 ms p99 of its own lateness against 5–26 ms for the Node one, and p99s at
// 800 req/s of GET /v0/brands 7–16 ms against 26–36 ms, interleaved, same API), else the Node one.
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constantRate } from './constant-rate.mjs';

const spec = JSON.parse(process.argv[2]);
const openLoop = spec.overallRate && !spec.answeredKey ? openLoopBinary() : null;
if (openLoop) {
  process.stdout.write(JSON.stringify(runOpenLoop(openLoop, spec)));
} else if (spec.overallRate) {
  // The Node generator: where no C compiler is found, and for the webhook latency run, which
  // reads each 201's body (200 requests a second, light enough for it).
  const result = await constantRate({ ...spec, rate: spec.overallRate, duration: spec.duration ?? 5 });
  process.stdout.write(JSON.stringify(result));
} else if (spec.generator === 'wrk') {
  process.stdout.write(JSON.stringify(runWrk(spec)));
} else {
  // `paths`: the requests go round these paths (one resource each) instead of the url's path.
  let next = 0;
  const result = await autocannon({
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    ...(spec.paths && { requests: [{ setupRequest: (request) => ({ ...request, path: spec.paths[next++ % spec.paths.length] }) }] }),
    connections: spec.connections ?? 32,
    duration: spec.duration ?? 5,
    pipelining: 1,
  });
  process.stdout.write(
    JSON.stringify({
      rps: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      requests: result.requests.total,
    }),
  );
}

function runWrk(spec) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const pathsFile = join(dir, 'paths');
    writeFileSync(pathsFile, (spec.paths ?? []).join('\n'));
    const env = {
      ...process.env,
      WRK_METHOD: spec.method,
      WRK_BODY: spec.body ?? '',
      WRK_HEADERS: Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n'),
      WRK_PATHS_FILE: spec.paths ? pathsFile : '',
    };
    const script = join(dirname(fileURLToPath(import.meta.url)), 'wrk.lua');
    const args = ['-t1', `-c${spec.connections ?? 32}`, `-d${spec.duration ?? 5}s`, '--timeout', '10s', '-s', script, spec.url];
    const run = spawnSync('wrk', args, { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split('\n').pop());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// bench/open-loop.c, compiled once into bench/data/ (rebuilt when the source is newer); null when
// the machine has no C compiler or the build fails, and the Node generator runs instead.
function openLoopBinary() {
  if (process.env.BENCH_OPEN_LOOP === 'node') return null;
  const here = dirname(fileURLToPath(import.meta.url));
  const source = join(here, 'open-loop.c');
  const binary = join(here, 'data', 'open-loop');
  if (existsSync(binary) && statSync(binary).mtimeMs >= statSync(source).mtimeMs) return binary;
  mkdirSync(join(here, 'data'), { recursive: true });
  const build = spawnSync('cc', ['-O2', '-o', binary, source], { encoding: 'utf8' });
  return build.status === 0 ? binary : null;
}

function runOpenLoop(binary, spec) {
  const url = new URL(spec.url);
  const body = spec.body ?? '';
  const head = Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const raw = (path) =>
    Buffer.from(`${spec.method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\n${head}${body || spec.method !== 'GET' ? `content-length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`);
  const requests = (spec.paths ?? [`${url.pathname}${url.search}`]).map(raw);
  const dir = mkdtempSync(join(tmpdir(), 'bench-open-loop-'));
  try {
    const file = join(dir, 'requests');
    writeFileSync(file, Buffer.concat([Buffer.from(`${requests.length}\n`), ...requests.flatMap((r) => [Buffer.from(`${r.length}\n`), r])]));
    const run = spawnSync(binary, [url.port, String(spec.overallRate), String(spec.duration ?? 5), '1', String(spec.connections ?? 64), file], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`open-loop failed: ${run.stderr}`);
    return JSON.parse(run.stdout.trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
