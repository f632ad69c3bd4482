// Load generator, run as its own process (pinned to its own core by bench/run.mjs): reads one
// scenario as JSON from argv and prints the result as JSON. Maximum throughput is driven closed
// loop with 32 connections by wrk when the machine has it (C: it reads an 18 KB list response for
// a fraction of what autocannon spends, and the load generator shares its core with PostgreSQL),
// else by autocannon; a given rate by the open-loop generator.
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constantRate } from './constant-rate.mjs';

const spec = JSON.parse(process.argv[2]);
if (spec.overallRate) {
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
