// The two load generators, one per model:
// - closed loop (maximum throughput): wrk, 32 connections (Debian package `wrk`). It reads an 18 KB
//   list response for a fraction of what a Node generator spends, and it shares its core with
//   PostgreSQL and Redis.
// - open loop at a constant rate (half load, the latency curve): bench/processes/open-loop.c, compiled here.
//   Request i is due at start + i / rate whatever happened to earlier ones and its latency runs
//   from when it was due (no coordinated omission). Packaged tools tried on this machine's
//   distribution: wrk2 and vegeta are not packaged; `h2load --rps` and `hey -q` pace each client
//   but time a request from when it was sent, so a stalled server hides its own delay
//   (coordinated omission); wrk's own `--rate` does not exist (it is wrk2's).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BENCH = join(import.meta.dirname, '..');

/** What the machine lacks to run the generators, each with how to get it; empty when ready. */
export function missingTools() {
  const missing = [];
  if (spawnSync('wrk', ['-v']).error !== undefined) missing.push('wrk (the closed-loop generator): apt-get install wrk');
  if (openLoopBinary() === null) missing.push('a C compiler for bench/processes/open-loop.c: apt-get install gcc');
  return missing;
}

/** Maximum throughput of one scenario: { rps, p50Ms, p99Ms, errors, requests }. */
export function runWrk(spec) {
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
    const args = ['-t1', `-c${spec.connections ?? 32}`, `-d${spec.duration ?? 5}s`, '--timeout', '10s', '-s', join(BENCH, 'processes', 'wrk.lua'), spec.url];
    const run = spawnSync('wrk', args, { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split('\n').pop());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** bench/processes/open-loop.c, compiled once into bench/data/ (again when the source is newer); null when it cannot be. */
export function openLoopBinary() {
  const source = join(BENCH, 'processes', 'open-loop.c');
  const binary = join(BENCH, 'data', 'open-loop');
  if (existsSync(binary) && statSync(binary).mtimeMs >= statSync(source).mtimeMs) return binary;
  mkdirSync(join(BENCH, 'data'), { recursive: true });
  const build = spawnSync('cc', ['-O2', '-o', binary, source], { encoding: 'utf8' });
  return build.status === 0 ? binary : null;
}

/** One scenario at `spec.overallRate` requests a second: { p50Ms, p99Ms, maxMs, errors, generator }. */
export function runOpenLoop(spec) {
  const binary = openLoopBinary();
  if (binary === null) throw new Error('bench/processes/open-loop.c could not be compiled');
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
