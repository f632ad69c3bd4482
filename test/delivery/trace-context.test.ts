import { randomBytes } from 'node:crypto';
import { subscriptionBody } from '../support/builders/subscriptions';
import { deliveryWorld } from '../support/delivery-world';
import { platform, rows } from '../support/platform';
import { createTenant, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

// Issue 32: trace context is always on, with no exporter configured (as here): the request's
// W3C trace context is kept with its event, and each attempt sends the receiver a traceparent
// of that trace naming the attempt itself.
const receiver = new WebhookReceiver();
const world = deliveryWorld(receiver);
let t: TestApp;
let tenant: TestTenant;
let pageGroupId: string;
beforeAll(() => {
  t = world.t;
});
// Each test has a receiver path of its own (deliveryWorld), so each subscribes to it.
beforeEach(async () => {
  tenant = await createTenant(t);
  pageGroupId = (await platform(t).group(tenant.tenantId)).pageGroupId;
  expect((await t.http.post('/v0/webhook_subscriptions').set('x-api-key', tenant.apiKey).send(subscriptionBody(receiver.url))).status).toBe(201);
});

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

async function createPage(headers: Record<string, string>): Promise<{ eventId: string; headers: Record<string, unknown> }> {
  const before = receiver.received.length;
  const res = await t.http.post(`/v0/page_groups/${pageGroupId}/pages`).set('x-api-key', tenant.apiKey).set(headers);
  expect(res.status).toBe(201);
  await receiver.waitFor(before + 1);
  const delivery = receiver.received[before];
  return { eventId: delivery.body.id, headers: delivery.headers };
}

describe('trace context from the request to the receiver', () => {
  it('continues the caller’s traceparent and tracestate: the receiver gets the same trace and sampling, a span of its own', async () => {
    const traceId = hex(16);
    const callerSpan = hex(8);
    const delivered = await createPage({ traceparent: `00-${traceId}-${callerSpan}-01`, tracestate: 'acme=1,other=x' });
    const [, receivedTrace, receivedSpan] = TRACEPARENT.exec(String(delivered.headers.traceparent))!;
    expect(receivedTrace).toBe(traceId);
    expect(receivedSpan).not.toBe(callerSpan);
    expect(delivered.headers.traceparent).toMatch(/-01$/);
    expect(delivered.headers.tracestate).toBe('acme=1,other=x');
    // The event keeps the API's SERVER span as the parent of its attempts.
    const [stored] = await rows<{ traceparent: string; tracestate: string }>(t, 'SELECT traceparent, tracestate FROM outbox_events WHERE id = ?', [delivered.eventId]);
    expect(stored.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(stored.traceparent).not.toContain(callerSpan);
    expect(stored.traceparent).not.toContain(receivedSpan);
    expect(stored.tracestate).toBe('acme=1,other=x');
  });

  it('keeps an unsampled caller unsampled: the receiver gets the same trace, flagged 00, and a span of its own', async () => {
    const traceId = hex(16);
    const callerSpan = hex(8);
    const delivered = await createPage({ traceparent: `00-${traceId}-${callerSpan}-00` });
    const [, receivedTrace, receivedSpan] = TRACEPARENT.exec(String(delivered.headers.traceparent))!;
    expect(receivedTrace).toBe(traceId);
    expect(receivedSpan).not.toBe(callerSpan);
    expect(delivered.headers.traceparent).toMatch(/-00$/);
  });

  it('starts a trace for a request that brings none, or a malformed one, and still tells the receiver', async () => {
    for (const headers of [{} as Record<string, string>, { traceparent: 'not-a-trace' }, { traceparent: `00-${'0'.repeat(32)}-${hex(8)}-01` }]) {
      const delivered = await createPage(headers);
      const [, traceId] = TRACEPARENT.exec(String(delivered.headers.traceparent)) ?? [];
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceId).not.toBe('0'.repeat(32));
      expect(delivered.headers.tracestate).toBeUndefined();
    }
  });

  it('gives each attempt of one event its own span in the same trace', async () => {
    const traceId = hex(16);
    receiver.script = [500];
    const first = await createPage({ traceparent: `00-${traceId}-${hex(8)}-01` });
    await receiver.waitFor(receiver.received.length + 1);
    const retry = receiver.received[receiver.received.length - 1];
    expect(retry.body.id).toBe(first.eventId);
    const spans = [first.headers.traceparent, retry.headers.traceparent].map((header) => TRACEPARENT.exec(String(header))!);
    expect(spans.map(([, trace]) => trace)).toEqual([traceId, traceId]);
    expect(spans[0][2]).not.toBe(spans[1][2]);
  });
});
