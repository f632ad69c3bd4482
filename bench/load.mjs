// Load generator, run as its own process (pinned to its own core by bench/run.mjs):
// reads one scenario as JSON from argv, drives it with autocannon, prints the result as JSON.
import autocannon from 'autocannon';

const spec = JSON.parse(process.argv[2]);
const result = await autocannon({
  url: spec.url,
  method: spec.method,
  headers: spec.headers,
  body: spec.body,
  connections: spec.connections ?? 32,
  duration: spec.duration ?? 5,
  overallRate: spec.overallRate,
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
