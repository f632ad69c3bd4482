// Load generator, run as its own process (pinned to its own core by bench/run.mjs): reads one
// scenario as JSON from argv and prints the result as JSON. Maximum throughput is driven by
// autocannon (closed loop, 32 connections); a given rate by the open-loop generator.
import autocannon from 'autocannon';
import { constantRate } from './constant-rate.mjs';

const spec = JSON.parse(process.argv[2]);
if (spec.overallRate) {
  const result = await constantRate({ ...spec, rate: spec.overallRate, duration: spec.duration ?? 5 });
  process.stdout.write(JSON.stringify(result));
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
