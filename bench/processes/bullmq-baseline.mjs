// The ceiling of the webhook drain, measured in the same run (bench/run.mjs): BullMQ jobs that
// each carry a ready event body, signed and POSTed by the worker's own signer and sender to the
// same receiver, with the worker's concurrency, and no database at all. What the real worker adds
// on top (claiming and recording each attempt in PostgreSQL, the relay's fan-out) is the cost of
// PostgreSQL being the truth.
//
// Started by bench/run.mjs on the worker's core with a JSON argument:
//   { redisUrl, url, signingSecret, body, count, concurrency, perJob, addsTimed? }
// It enqueues `count` events (`perJob` to a job: 1 is the classic one job per POST; more, as the
// worker groups a backlog), prints "added", starts working on a "go" line on stdin, and exits when
// every job is done. As in the worker, a job's POSTs go side by side and at most `concurrency`
// are in flight in all.
import { createInterface } from 'node:readline';
import { Queue, Worker } from 'bullmq';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { HmacWebhookSigner } = require('../../dist/infrastructure/webhooks/hmac-webhook.signer.js');
const { HttpWebhookSender } = require('../../dist/infrastructure/webhooks/http-webhook.sender.js');
// The worker process's heap settings (src/composition/worker/worker-heap.ts), so that the ceiling's
// collector works as the worker's does.
require('../../dist/composition/worker/worker-heap.js').tuneWorkerHeap();

const spec = JSON.parse(process.argv[2]);
const connection = { url: spec.redisUrl, maxRetriesPerRequest: null };
const prefix = 'bench-ceiling';
const name = 'signed-posts';
const queue = new Queue(name, { connection, prefix });
await queue.obliterate({ force: true });

// Each event keeps the real body's shape and size; only its id differs (the receiver counts ids).
const template = JSON.parse(spec.body);
const bodyOf = (n) => JSON.stringify({ ...template, id: `${template.id.slice(0, -8)}${String(n).padStart(8, '0')}` });
const jobs = [];
for (let n = 0; n < spec.count; n += spec.perJob) {
  const events = Array.from({ length: Math.min(spec.perJob, spec.count - n) }, (_, i) => bodyOf(n + i));
  jobs.push({ name: 'post', data: { events }, opts: { removeOnComplete: true, removeOnFail: true } });
}
// With `addsTimed` the jobs are added after "go", while the worker takes them, as the worker's relay
// adds its jobs: 200 events a round, one round after the other. Their adding then falls inside the
// measured window (from the 100th arrival), as the relay's does; without it they are all waiting
// when the clock starts.
const addAll = async () => {
  const chunk = spec.addsTimed ? Math.ceil(200 / spec.perJob) : 1000;
  for (let i = 0; i < jobs.length; i += chunk) await queue.addBulk(jobs.slice(i, i + chunk));
};
if (!spec.addsTimed) await addAll();
process.stdout.write('added\n');
await new Promise((resolve) => createInterface({ input: process.stdin }).once('line', resolve));
const adding = spec.addsTimed ? addAll() : Promise.resolve();

const signer = new HmacWebhookSigner();
const sender = new HttpWebhookSender({ timeoutMs: 10_000, allowPrivateTargets: true, connections: spec.concurrency });
// At most `concurrency` POSTs in flight, as the worker's own cap (InFlightLimits) allows.
let inFlight = 0;
const waiting = [];
const slot = () => (inFlight < spec.concurrency ? (inFlight++, Promise.resolve()) : new Promise((resolve) => waiting.push(resolve)));
const release = () => (waiting.length > 0 ? waiting.shift()() : inFlight--);
const post = async (body) => {
  await slot();
  try {
    const eventId = JSON.parse(body).id;
    const headers = signer.headers({ eventId, eventType: template.type, body, signingSecret: spec.signingSecret, sentAt: new Date() });
    const result = await sender.send({ url: spec.url, body, headers });
    if (result.statusCode !== 204) throw new Error(`receiver answered ${result.statusCode ?? result.error}`);
  } finally {
    release();
  }
};
let done = 0;
const finished = new Promise((resolve) => {
  const worker = new Worker(
    name,
    async (job) => {
      await Promise.all(job.data.events.map(post));
    },
    { connection, prefix, concurrency: spec.concurrency },
  );
  worker.on('completed', () => {
    if (++done === jobs.length) resolve(worker);
  });
});
const worker = await finished;
await adding;
await worker.close();
await queue.obliterate({ force: true });
await queue.close();
await sender.close();
