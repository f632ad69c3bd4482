// Pages created through the API at a fixed rate for the webhook latency run (bench/lib/webhooks.mjs):
// reads one spec as JSON from argv, prints, as JSON, when each 201 arrived by the page id in its
// body (`answeredKey`). Not a load generator of the API's measurements (those are wrk and
// bench/processes/open-loop.c): it must read every answer's body, which they do not.
import { constantRate } from './constant-rate.mjs';

const spec = JSON.parse(process.argv[2]);
const result = await constantRate({ url: spec.url, method: 'POST', headers: spec.headers, body: '{}', rate: spec.rate, duration: spec.duration, answeredKey: spec.answeredKey });
process.stdout.write(JSON.stringify(result));
