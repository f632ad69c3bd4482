// The soak's webhook receiver, on loopback: one path per subscription (/hooks/<k>), every request
// verified against both signatures (the spec's X-Webhook-Signature-256 and Standard Webhooks'
// webhook-signature), a share of first answers for an (event, subscription) failed with a 500,
// and every (event, subscription) counted once delivered, again if it comes after a 2xx.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const equal = (a, b) => a.length === b.length && timingSafeEqual(a, b);

export function signaturesHold(secret, raw, headers) {
  const spec = headers['x-webhook-signature-256'];
  const specOk = typeof spec === 'string' && equal(Buffer.from(spec), Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`));
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const given = headers['webhook-signature'];
  if (!specOk || typeof id !== 'string' || typeof timestamp !== 'string' || typeof given !== 'string') return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = Buffer.from(`v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(raw).digest('base64')}`);
  return given.split(' ').some((one) => equal(Buffer.from(one), expected));
}

export class SoakReceiver {
  constructor({ failShare, random }) {
    this.failShare = failShare;
    this.random = random;
    /** Subscription k's signing secret, set once it is made. */
    this.secrets = [];
    this.delivered = new Set();
    this.answered = new Set();
    this.requests = 0;
    this.failedFirst = 0;
    this.badSignatures = 0;
    this.duplicatesAfter2xx = 0;
    this.port = 0;
  }

  url(k) {
    return `http://127.0.0.1:${this.port}/hooks/${k}`;
  }

  async start() {
    this.server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => res.writeHead(this.answer(req, Buffer.concat(chunks))).end());
    });
    this.server.keepAliveTimeout = 5000;
    await new Promise((done) => this.server.listen(0, '127.0.0.1', done));
    this.port = this.server.address().port;
  }

  answer(req, raw) {
    this.requests++;
    const k = Number(/^\/hooks\/(\d+)$/.exec(req.url ?? '')?.[1]);
    const secret = this.secrets[k];
    if (!secret || !signaturesHold(secret, raw, req.headers)) {
      this.badSignatures++;
      return 401;
    }
    const key = `${req.headers['webhook-id']}:${k}`;
    if (!this.answered.has(key)) {
      this.answered.add(key);
      if (this.random() < this.failShare) {
        this.failedFirst++;
        return 500;
      }
    }
    if (this.delivered.has(key)) this.duplicatesAfter2xx++;
    else this.delivered.add(key);
    return 204;
  }

  stop() {
    this.server?.closeAllConnections();
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}
