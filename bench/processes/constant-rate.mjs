// Requests at a constant arrival rate from Node, for the webhook latency run's pages
// (bench/processes/event-feed.mjs), which must read each answer's body; the API's own fixed-rate
// measurements use bench/processes/open-loop.c (decisions.md 78). Request i is due at
// start + i / rate whatever happened to earlier ones, and its latency is counted from when it was
// due, not from when it was sent (no coordinated omission, as wrk2 does). A warm-up at the same
// rate comes first and is not counted: it opens the connections and warms both JITs, which
// otherwise puts the first 300 ms of every run (all requests slow) into the p99.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';

// `answeredKey`: for each 2xx answer, record when it arrived (ms since the epoch) under that field
// of its JSON body (the webhook bench joins a page's 201 with its event's arrival at the receiver).
export async function constantRate({ url, paths, method, headers, body, rate, duration, connections = 64, warmup = 1, answeredKey }) {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  // `paths`: the requests go round these paths (one resource each) instead of the url's path.
  const rotation = paths ?? [`${target.pathname}${target.search}`];
  if (warmup > 0) await schedule(pool, { rotation, method, headers, body, rate, duration: warmup });
  const result = await schedule(pool, { rotation, method, headers, body, rate, duration, answeredKey });
  await pool.close();
  return result;
}

async function schedule(pool, { rotation, method, headers, body, rate, duration, answeredKey }) {
  const total = Math.max(1, Math.round(rate * duration));
  const intervalNs = 1e9 / rate;
  const latencies = new Float64Array(total);
  // The generator's own lateness, reported next to the latencies it is part of: how late each
  // request left (due → sent) and how long the generator's event loop was held up. The generator
  // shares its core with PostgreSQL and Redis; when these are large, so is every latency measured.
  const sendLags = new Float64Array(total);
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  let errors = 0;
  let done = 0;
  let sent = 0;
  const answered = answeredKey ? {} : undefined;

  const fire = (dueNs, path) =>
    pool
      .request({ path, method, headers, body })
      .then(async (res) => {
        if (answered && res.statusCode < 300) {
          const id = (await res.body.json())[answeredKey];
          answered[id] = Date.now();
        } else await res.body.dump();
        if (res.statusCode >= 300) errors++;
      })
      .catch(() => errors++)
      .finally(() => {
        latencies[done++] = Number(process.hrtime.bigint() - dueNs) / 1e6;
      });

  const start = process.hrtime.bigint() + 5_000_000n;
  const pending = [];
  await new Promise((resolve) => {
    const tick = () => {
      const now = process.hrtime.bigint();
      while (sent < total) {
        const due = start + BigInt(Math.round(sent * intervalNs));
        if (due > now) break;
        sendLags[sent] = Number(now - due) / 1e6;
        pending.push(fire(due, rotation[sent % rotation.length]));
        sent++;
      }
      if (sent >= total) resolve();
      // A 1 ms timer, not a spin: the generator's core is shared with PostgreSQL. Lateness of the
      // timer is counted in the latency (from the due time), so it can only make figures worse.
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(pending);
  loopDelay.disable();

  const sorted = Array.from(latencies.subarray(0, done)).sort((a, b) => a - b);
  const at = (q) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const lags = Array.from(sendLags.subarray(0, sent)).sort((a, b) => a - b);
  const generator = {
    kind: 'node',
    sendLagP99Ms: round(lags[Math.min(lags.length - 1, Math.floor(0.99 * lags.length))]),
    sendLagMaxMs: round(lags[lags.length - 1]),
    loopDelayP99Ms: round(loopDelay.percentile(99) / 1e6),
    loopDelayMaxMs: round(loopDelay.max / 1e6),
  };
  return { rps: done / seconds, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: round(sorted[sorted.length - 1]), errors, requests: done, generator, ...(answered && { answered }) };
}

const round = (n) => Math.round(n * 10) / 10;
