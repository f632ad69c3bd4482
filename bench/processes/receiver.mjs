// Webhook receiver for the benchmark: verifies every signature (timing-safe), records when each
// event arrived (by page id) and how long after the API created it. Prints a summary as JSON on
// SIGUSR1 and SIGTERM (then exits), starts counting afresh on SIGUSR2, and prints
// "count <n>" lines as deliveries arrive (every 100).
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

// The key is made once: keying an HMAC with a string on every request cost ~20 µs, on the cores
// the worker, PostgreSQL and Redis share during a drain (the receiver stands in for a machine of
// the customer's own).
const secret = createSecretKey(Buffer.from(process.env.SIGNING_SECRET, 'utf8'));
const port = Number(process.env.PORT);
const seen = new Set();
const latencies = [];
// pageId → when its event arrived (ms since the epoch), joined by the bench with the page's 201.
const arrivals = {};
let bad = 0;
let received = 0;

function verify(raw, header) {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    if (!verify(raw, req.headers['x-webhook-signature-256'])) {
      bad++;
      res.writeHead(401).end();
      return;
    }
    const event = JSON.parse(raw.toString('utf8'));
    received++;
    if (!seen.has(event.id)) {
      seen.add(event.id);
      const now = Date.now();
      latencies.push(now - Date.parse(event.createdAt));
      if (event.data?.pageId) arrivals[event.data.pageId] = now;
    }
    res.writeHead(204).end();
    if (received % 100 === 0) process.stdout.write(`count ${seen.size}\n`);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));

const printSummary = () => process.stdout.write(`summary ${JSON.stringify({ received, distinct: seen.size, badSignatures: bad, latencies, arrivals })}\n`);
process.on('SIGUSR1', printSummary);
process.on('SIGTERM', () => {
  printSummary();
  process.exit(0);
});
process.on('SIGUSR2', () => {
  latencies.length = 0;
  for (const key of Object.keys(arrivals)) delete arrivals[key];
  seen.clear();
  received = 0;
  process.stdout.write('reset\n');
});
