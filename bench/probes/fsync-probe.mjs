// The disk's own commit latency, without PostgreSQL or the API: 8 KB written and fdatasync'ed in
// a loop, as PostgreSQL flushes its write-ahead log at each commit, in a file on the filesystem
// of PostgreSQL's data directory. A durable commit cannot return before its flush, so the
// flushes' durations are the floor under every write endpoint's latency on this machine.
// At a given rate the flushes are paced (one due every 1/rate s), as commits arrive at a fixed
// request rate; without one they run back to back. Each figure is one flush's own duration.
//   node bench/probes/fsync-probe.mjs [seconds=10] [rate=0 (back to back)] [directory=/var/lib/postgresql]
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const seconds = Number(process.argv[2] ?? 10);
const rate = Number(process.argv[3] ?? 0);
const dir = process.argv[4] ?? '/var/lib/postgresql';
const file = join(dir, `fsync-probe-${process.pid}.tmp`);
const block = Buffer.alloc(8192, 7);
const segment = 16 * 1024 * 1024; // a WAL segment: the writes go round it, as WAL writes do
const fd = openSync(file, 'w');
const latencies = [];
const started0 = performance.now();
try {
  const start = performance.now();
  const end = start + seconds * 1000;
  let offset = 0;
  for (let i = 0; performance.now() < end; i++) {
    const due = rate > 0 ? start + (i * 1000) / rate : performance.now();
    while (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now() - 1)));
    const started = performance.now();
    writeSync(fd, block, 0, block.length, offset);
    fdatasyncSync(fd);
    latencies.push(performance.now() - started);
    offset = (offset + block.length) % segment;
  }
} finally {
  closeSync(fd);
  rmSync(file, { force: true });
}
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
const over = (ms) => latencies.filter((x) => x > ms).length;
const r = (n) => Math.round(n * 100) / 100;
console.log(
  JSON.stringify({
    rate: rate || 'back to back',
    flushes: latencies.length,
    perSecond: Math.round(latencies.length / seconds),
    p50Ms: r(at(0.5)),
    p99Ms: r(at(0.99)),
    p999Ms: r(at(0.999)),
    maxMs: r(latencies[latencies.length - 1]),
    over10Ms: over(10),
    over50Ms: over(50),
    over100Ms: over(100),
    // Each flush's own duration is above. A commit that arrives during a flush of d ms waits for
    // it (its WAL is in the next one): the share of the run in which an arrival waits > 50 ms is
    // the sum of (d - 50) over the flushes longer than 50 ms, over the run's length.
    shareOfArrivalsWaitingOver50Ms: r(latencies.filter((x) => x > 50).reduce((a, x) => a + x - 50, 0) / (performance.now() - started0), 3),
  }),
);
