import { randomBytes } from 'node:crypto';
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

async function scenario(otlpEnv: (collector: OtlpReceiver) => Record<string, string>) {
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
  expect((await call('/v0/webhook_subscriptions', { method: 'POST', body: JSON.stringify(subscriptionBody(receiver.url)) })).status).toBe(201);
  const traceId = hex(16);
  const callerSpanId = hex(8);
  const created = await call(`/v0/page_groups/${groupId}/pages`, { method: 'POST', headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
  expect(created.status).toBe(201);
  await receiver.waitFor(1);
  const received = String(receiver.received[0].headers.traceparent);
  const requestId = created.headers.get('x-request-id');
  return {
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
});
