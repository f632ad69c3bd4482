import { createHash, randomBytes } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { subscriptionBody } from '../support/builders/subscriptions';
import { builtCli } from '../support/cli';
import { eventually } from '../support/eventually';
import { isolatedDatabase } from '../support/isolated-database';
import { ServiceProcess } from '../support/service-process';
import { WebhookReceiver } from '../support/webhook-receiver';
import { workerEnv } from '../support/webhook-worker';

// Issue 32: with the standard OTEL_* variables the service exports its spans over OTLP/HTTP. An
// OTLP receiver on loopback inside the test takes them; the built service (API and worker in one
// process, as `npm start` runs) is the one under test, its instrumentations loaded as in production.

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  service: string;
}
const SERVER = 2;
const CLIENT = 3;

/** An OTLP/HTTP collector: keeps each request's headers and body; decodes the JSON protocol. */
class OtlpReceiver {
  readonly requests: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  private server?: Server;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        const json = String(req.headers['content-type']).startsWith('application/json');
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : undefined);
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Every span of every JSON export so far. */
  spans(): ExportedSpan[] {
    return this.requests.flatMap(({ body }) =>
      JSON.parse(body.toString()).resourceSpans.flatMap((rs: any) => {
        const service = rs.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
        return rs.scopeSpans.flatMap((ss: any) =>
          ss.spans.map((s: any) => ({ ...s, service, attributes: Object.fromEntries((s.attributes ?? []).map((a: any) => [a.key, Object.values(a.value)[0]])) })),
        );
      }),
    );
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

async function scenario(otlpEnv: (collector: OtlpReceiver) => Record<string, string>, options: { receiverPath?: string; pageBody?: Record<string, unknown> } = {}) {
  const db = await isolatedDatabase();
  const receiver = new WebhookReceiver();
  const collector = new OtlpReceiver();
  await Promise.all([receiver.start(), collector.start()]);
  const service = new ServiceProcess({
    ...workerEnv(db.url, { LOG_LEVEL: 'info', SERVICE_ROLE: 'all', OTEL_BSP_SCHEDULE_DELAY: '50', ...otlpEnv(collector) }),
  });
  const base = await service.baseUrl();
  await service.waitFor((l) => l.msg === 'webhook worker started');
  const cli = (...argv: string[]) => JSON.parse(builtCli([...argv, '--json'], { DATABASE_URL: db.url }).stdout);
  const tenantId = cli('tenant:create', '--name', 'Traced').tenantId;
  const apiKey = cli('api-key:create', '--tenant', tenantId).apiKey;
  const groupId = cli('page-group:create', '--tenant', tenantId, '--name', 'G').pageGroupId;
  const call = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...init.headers } });
  const subscription = subscriptionBody(`${receiver.url}${options.receiverPath ?? ''}`);
  expect((await call('/v0/webhook_subscriptions', { method: 'POST', body: JSON.stringify(subscription) })).status).toBe(201);
  const traceId = hex(16);
  const callerSpanId = hex(8);
  const created = await call(`/v0/page_groups/${groupId}/pages`, {
    method: 'POST',
    headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    body: options.pageBody ? JSON.stringify(options.pageBody) : undefined,
  });
  expect(created.status).toBe(201);
  await receiver.waitFor(1);
  const received = String(receiver.received[0].headers.traceparent);
  const requestId = created.headers.get('x-request-id');
  return {
    apiKey,
    base,
    call,
    traceId,
    callerSpanId,
    received,
    requestId,
    service,
    collector,
    close: async () => {
      await service.stop();
      await Promise.all([receiver.stop(), collector.stop()]);
      await db.drop();
    },
  };
}

describe('OpenTelemetry export over OTLP/HTTP', () => {
  it('http/json: one trace holds the API’s SERVER span, its statements and the attempt whose id the receiver got', async () => {
    const run = await scenario((c) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${c.port}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'traced-api' }));
    try {
      const [, receivedTrace, attemptSpanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(run.received)!;
      expect(receivedTrace).toBe(run.traceId);
      const inTrace = await eventually(
        async () => run.collector.spans().filter((s) => s.traceId === run.traceId),
        (spans) => spans.some((s) => s.spanId === attemptSpanId) && spans.some((s) => s.kind === SERVER && s.name.startsWith('POST /v0/page_groups')),
        15_000,
      );
      expect(run.collector.requests.every((r) => r.path === '/v1/traces')).toBe(true);
      const server = inTrace.find((s) => s.kind === SERVER && s.name === 'POST /v0/page_groups/:page_group_id/pages')!;
      expect(server).toMatchObject({ parentSpanId: run.callerSpanId, service: 'traced-api' });
      expect(server.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v0/page_groups/:page_group_id/pages', 'http.response.status_code': 201 });
      const attempt = inTrace.find((s) => s.spanId === attemptSpanId)!;
      expect(attempt).toMatchObject({ kind: CLIENT, name: 'webhook attempt' });
      expect(attempt.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 204, 'webhook.event_type': 'page.version.created', 'webhook.attempt': 1 });
      // The attempt's parent is the API request that wrote the event.
      expect(attempt.parentSpanId).toBe(server.spanId);
      // The use case's statements: PostgreSQL client spans under the request.
      const statements = inTrace.filter((s) => s.kind === CLIENT && (s.attributes['db.system.name'] ?? s.attributes['db.system']) === 'postgresql');
      process.stdout.write(`trace: ${inTrace.map((s) => `${s.name} (${s.kind})`).join(', ')}\n`);
      expect(statements.length).toBeGreaterThan(0);
      // The log line of the request carries its trace and span.
      const logged = await run.service.waitFor((l) => l.msg === 'request' && l.requestId === run.requestId);
      expect(logged).toMatchObject({ traceId: run.traceId, spanId: server.spanId });
      // So does the worker's line of the attempt, naming the attempt's span.
      const attemptLine = await run.service.waitFor((l) => l.msg === 'webhook attempt');
      expect(attemptLine).toMatchObject({ outcome: 'delivered', traceId: run.traceId, spanId: attemptSpanId });
    } finally {
      await run.close();
    }
  }, 60_000);

  it('http/protobuf (the default protocol) to a traces endpoint of its own', async () => {
    const run = await scenario((c) => ({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${c.port}/custom/traces` }));
    try {
      // Protobuf carries ids as raw bytes: the trace's 16 bytes are in what was exported.
      const traceBytes = Buffer.from(run.traceId, 'hex');
      await eventually(async () => run.collector.requests.filter((r) => r.body.includes(traceBytes)).length, (n) => n > 0, 15_000);
      expect(run.collector.requests.map((r) => [r.path, r.headers['content-type']])).toContainEqual(['/custom/traces', 'application/x-protobuf']);
      expect(run.collector.requests.some((r) => r.body.includes(Buffer.from('landing-customer-api')))).toBe(true);
    } finally {
      await run.close();
    }
  }, 60_000);

  it('exports no secret: receiver URLs as their origin, statements without values, Redis commands without arguments', async () => {
    // A Slack-style receiver URL, whose path is its secret, and a value that only a statement's parameters hold.
    const secretPath = `/services/T${hex(4)}/B${hex(4)}/${hex(12)}`;
    const parameterValue = `context-${hex(8)}`;
    // Every trace sampled (the default sampler), so whatever could leak is exported.
    const run = await scenario((c) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${c.port}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), {
      receiverPath: secretPath,
      pageBody: { supplementaryContext: parameterValue },
    });
    try {
      const [, , attemptSpanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(run.received)!;
      // A request without a valid key: its address's failure is counted in Redis under its span.
      const refused = await run.call('/v0/brands', { headers: { 'x-api-key': `lp_${'A'.repeat(43)}` } });
      expect(refused.status).toBe(401);
      const refusedTrace = String((await run.service.waitFor((l) => l.msg === 'request' && l.requestId === refused.headers.get('x-request-id'))).traceId);
      const spans = await eventually(
        async () => run.collector.spans(),
        (all) => all.some((s) => s.spanId === attemptSpanId) && all.some((s) => s.traceId === refusedTrace && s.attributes['db.system.name'] === 'redis'),
        15_000,
      );
      // The attempt's URL is its origin only.
      const attempt = spans.find((s) => s.spanId === attemptSpanId)!;
      expect(String(attempt.attributes['url.full'])).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // Redis commands (the refused address's count, the relay's enqueue) by their names alone.
      const redis = spans.filter((s) => s.attributes['db.system.name'] === 'redis');
      for (const span of redis) expect(String(span.attributes['db.query.text'])).toMatch(/^[a-z]+$/);
      // A portal session: its link exchanged, its token used on the delivery search (decisions.md 186).
      const opened = (await (await run.call('/v0/portal_sessions', { method: 'POST', body: JSON.stringify({ capabilities: ['deliveries:read'], expiresIn: 600 }) })).json()) as { url: string };
      const linkToken = decodeURIComponent(new URL(opened.url).hash.replace(/^#token=/, ''));
      const { sessionToken } = (await (await run.call('/v0/portal_sessions/exchange', { method: 'POST', body: JSON.stringify({ linkToken }) })).json()) as { sessionToken: string };
      const searched = await fetch(`${run.base}/v0/webhook_deliveries`, { headers: { authorization: `Bearer ${sessionToken}` } });
      expect(searched.status).toBe(200);
      await run.service.waitFor((l) => l.msg === 'request' && l.requestId === searched.headers.get('x-request-id'));
      await eventually(async () => run.collector.spans(), (all) => all.some((s) => s.name === 'GET /v0/webhook_deliveries'), 15_000);
      // Nothing exported or logged holds a key or token, their hashes, the receiver's path, a parameter's value or a client address's key.
      const exported = Buffer.concat(run.collector.requests.map((r) => r.body)).toString();
      const logged = run.service.lines.map((l) => JSON.stringify(l)).join('\n');
      const sha = (value: string) => createHash('sha256').update(value).digest('hex');
      for (const secret of [run.apiKey, sha(run.apiKey), linkToken, sha(linkToken), sessionToken, sha(sessionToken), secretPath, parameterValue, 'authfail:']) expect(exported).not.toContain(secret);
      for (const secret of [run.apiKey, sha(run.apiKey), linkToken, sha(linkToken), sessionToken, sha(sessionToken)]) expect(logged).not.toContain(secret);
      // The test can fail: the statements of the page's write were exported, as their text.
      expect(spans.some((s) => s.traceId === run.traceId && String(s.attributes['db.query.text']).includes('INSERT'))).toBe(true);
    } finally {
      await run.close();
    }
  }, 60_000);

  it('follows the sampled flag of a caller with a valid key only; others keep their trace id, unsampled', async () => {
    // The service samples no new trace by itself: only a caller's sampled flag makes spans.
    const run = await scenario((c) => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${c.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    }));
    try {
      const forced = [hex(16), hex(16)];
      const noKey = await fetch(`${await run.service.baseUrl()}/v0/brands`, { headers: { traceparent: `00-${forced[0]}-${hex(8)}-01` } });
      expect(noKey.status).toBe(401);
      const badKey = await run.call('/v0/brands', { headers: { 'x-api-key': `lp_${'A'.repeat(43)}`, traceparent: `00-${forced[1]}-${hex(8)}-01` } });
      expect(badKey.status).toBe(401);
      // Their trace ids are kept for correlation: the log lines carry them.
      for (const [res, traceId] of [[noKey, forced[0]], [badKey, forced[1]]] as const) {
        expect(await run.service.waitFor((l) => l.msg === 'request' && l.requestId === res.headers.get('x-request-id'))).toMatchObject({ traceId });
      }
      // A valid key's sampled request after them: once it is exported, so would anything that
      // ended before it have been (spans are exported in the order they end).
      const after = hex(16);
      expect((await run.call('/v0/brands', { headers: { traceparent: `00-${after}-${hex(8)}-01` } })).status).toBe(200);
      await eventually(async () => run.collector.spans().filter((s) => s.traceId === after && s.kind === SERVER).length, (n) => n === 1, 15_000);
      expect(run.collector.spans().filter((s) => forced.includes(s.traceId))).toEqual([]);
      // The first request of the scenario (a valid key, sampled) was recorded with its statements.
      expect(run.collector.spans().filter((s) => s.traceId === run.traceId).length).toBeGreaterThan(1);
    } finally {
      await run.close();
    }
  }, 60_000);
});
