// A webhook receiver that verifies every delivery before trusting it.
// Run:  SIGNING_SECRET=whsec_… PORT=4000 node examples/webhook-receiver.ts
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.SIGNING_SECRET ?? '';
const seen = new Set<string>();

/** The spec's check: HMAC-SHA256 of the raw body, hex, `sha256=` prefix, compared in constant time. */
export function verify(rawBody: Buffer, header: string | undefined, signingSecret: string): boolean {
  if (!header || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', signingSecret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    if (!verify(raw, req.headers['x-webhook-signature-256'] as string | undefined, secret)) {
      res.writeHead(401).end();
      return;
    }
    const event = JSON.parse(raw.toString('utf8')) as { id: string; type: string; data: unknown };
    // Deliveries are at least once: the event id tells a retry from a new event.
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(`${event.type} ${event.id}`, event.data);
    }
    res.writeHead(204).end();
  });
}).listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`listening on 127.0.0.1:${process.env.PORT ?? 4000}`));
