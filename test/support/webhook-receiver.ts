import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';

export interface ReceivedDelivery {
  /** The request's path (a subscription's URL below the test's path tells them apart). */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  body: any;
  /** The status it was answered with. */
  status: number;
  receivedAt: number;
}

/** How to answer one request, decided by the test from what it carries (`WebhookReceiver.respond`). */
export interface Answer {
  status: number;
  delayMs?: number;
  /** The answer's body (none by default). */
  body?: string | Buffer;
}

/**
 * A local webhook receiver on 127.0.0.1: records every request, answers with the scripted
 * statuses (then `fallback`), and wakes waiters when requests arrive.
 *
 * `startTest()` gives each test a path of its own: a request to an earlier test's path (a
 * retry or a redelivery that test did not wait for) is answered 204 and kept out of `received`
 * and the script, so it can neither take a later test's scripted answer nor be counted by it.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  private server?: Server;
  private waiters: { done: () => boolean; resolve: () => void }[] = [];
  port = 0;
  /** Answers to give in turn: a status, or a status with headers (e.g. Retry-After). */
  script: (number | { status: number; headers?: Record<string, string>; body?: string | Buffer })[] = [];
  fallback = 204;
  delayMs = 0;
  /** When set, decides each request's answer from its path and body, before the script. */
  respond?: (request: { path: string; body: any }) => Answer;
  /** While true, requests are parked unanswered until `releaseParked()`. */
  parking = false;
  private parked: (() => void)[] = [];
  private parkWaiters: { count: number; resolve: () => void }[] = [];
  private test = 0;
  /** Requests that came to an earlier test's path, answered 204 and otherwise ignored. */
  strays = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/${this.test}`;
  }

  /** A fresh path, nothing received, no script, fallback 204, nothing parked: called before each test. */
  startTest(): void {
    this.releaseParked();
    this.delayMs = 0;
    this.test += 1;
    this.received.length = 0;
    this.script = [];
    this.fallback = 204;
    this.respond = undefined;
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        if (!this.isCurrentTest(req.url ?? '')) {
          this.strays += 1;
          res.writeHead(204).end();
          return;
        }
        const body = safeJson(rawBody);
        const decided = this.respond?.({ path: req.url ?? '', body });
        const next = decided ? decided.status : (this.script.shift() ?? this.fallback);
        const [status, headers, answerBody] = typeof next === 'number' ? [next, {}, decided?.body] : [next.status, next.headers ?? {}, next.body];
        const answer = () => {
          res.writeHead(status, headers).end(answerBody);
          this.received.push({ path: req.url ?? '', headers: req.headers, rawBody, body, status, receivedAt: Date.now() });
          this.waiters = this.waiters.filter((w) => (w.done() ? (w.resolve(), false) : true));
        };
        if (decided?.delayMs) setTimeout(answer, decided.delayMs);
        else if (this.parking) {
          this.parked.push(answer);
          this.parkWaiters = this.parkWaiters.filter((w) => (this.parked.length >= w.count ? (w.resolve(), false) : true));
        } else if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((done) => this.server!.listen(port, '127.0.0.1', done));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** `/hooks/{test}` or a path below it (`/hooks/3/watch`), with or without a query. */
  private isCurrentTest(path: string): boolean {
    const base = `/hooks/${this.test}`;
    return path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`);
  }

  /** Requests parked now, unanswered. */
  get parkedCount(): number {
    return this.parked.length;
  }

  /** Resolves once at least `count` requests are parked. */
  waitForParked(count: number): Promise<void> {
    if (this.parked.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.parkWaiters.push({ count, resolve }));
  }

  /** Answers every parked request now, and stops parking. */
  releaseParked(): void {
    this.parking = false;
    const parked = this.parked;
    this.parked = [];
    for (const answer of parked) answer();
  }

  /** Resolves once at least `count` requests have been received. */
  waitFor(count: number): Promise<void> {
    return this.waitUntil(() => this.received.length >= count);
  }

  /** Resolves once `done` holds, checked as each request is answered. */
  waitUntil(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ done, resolve }));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
    this.server = undefined;
  }

  /** Distinct event ids received (at-least-once may repeat one). */
  eventIds(): string[] {
    return [...new Set(this.received.map((r) => r.headers['x-webhook-id'] as string))];
  }
}

/** The spec's verification (customer-api.md, Signature of deliveries), timing-safe. */
export function verifySpecSignature(rawBody: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function safeJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Each page's deliveries of `page.version.created` in the order the receiver first answered each
 * event with a success (a repeat of an event id is left out), among `received`.
 */
export function firstSuccessesByPage(received: readonly ReceivedDelivery[]): Map<string, ReceivedDelivery[]> {
  const seen = new Set<string>();
  const byPage = new Map<string, ReceivedDelivery[]>();
  for (const r of received) {
    if (r.status >= 300 || seen.has(r.body.id)) continue;
    seen.add(r.body.id);
    const list = byPage.get(r.body.data.pageId);
    if (list) list.push(r);
    else byPage.set(r.body.data.pageId, [r]);
  }
  return byPage;
}
