// Webhook receiver for the benchmark: verifies every signature (timing-safe), records when each
// event arrived and how long after the API created it. Prints a summary as JSON on SIGTERM, and
// "count <n>" lines as deliveries arrive (every 100).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.SIGNING_SECRET;
const port = Number(process.env.PORT);
const seen = new Set();
const latencies = [];
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
      latencies.push(Date.now() - Date.parse(event.createdAt));
    }
    res.writeHead(204).end();
    if (received % 100 === 0) process.stdout.write(`count ${seen.size}\n`);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));

process.on('SIGTERM', () => {
  process.stdout.write(`summary ${JSON.stringify({ received, distinct: seen.size, badSignatures: bad, latencies })}\n`);
  process.exit(0);
});
process.on('SIGUSR2', () => {
  latencies.length = 0;
  seen.clear();
  received = 0;
  process.stdout.write('reset\n');
});
