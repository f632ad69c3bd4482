import { context, isSpanContextValid, propagation, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { TraceCarrier } from '../../application/webhook/delivery/delivery-job';
import type { AttemptResult } from '../../application/webhook/attempt/delivery-claim';
import type { AttemptLabel } from '../../application/webhook/attempt/webhook-sender.port';
import { attemptIds } from './attempt-ids';
import { contextOf } from './trace-carrier';
import { spansExported, tracer, unexportedSampler } from './tracing';

/**
 * Runs one attempt in a CLIENT span of the trace that wrote its event (a new trace when that had
 * none), and hands `post` the headers with the span's `traceparent` (and `tracestate`): the
 * receiver can join the trace, and the id it gets names this attempt. The URL is recorded as its
 * origin only: customers put tokens in the query, and some receivers' paths are their secret
 * (a Slack-style incoming webhook URL).
 */
export async function attemptSpan(
  input: { url: string; headers: Record<string, string>; trace?: TraceCarrier | null; attempt?: AttemptLabel },
  post: (headers: Record<string, string>) => Promise<AttemptResult>,
): Promise<AttemptResult> {
  // Spans that go nowhere: only their ids are made, and nothing is made active around the POST
  // (no instrumentation reads it without an exporter).
  const sampler = unexportedSampler();
  if (sampler) {
    const span = attemptIds(input.trace ?? null, sampler);
    const headers = { ...input.headers, traceparent: span.traceparent, ...(span.tracestate !== null && { tracestate: span.tracestate }) };
    return { ...(await post(headers)), traceId: span.traceId, spanId: span.spanId };
  }
  const parent = contextOf(input.trace ?? null);
  // Attributes only for spans that leave the process: without an exporter they went nowhere and
  // cost the worker a URL parse and five objects per attempt (docs/performance-analysis.md).
  const described = spansExported();
  const attributes = described ? { 'http.request.method': 'POST', ...target(input.url), ...labels(input.attempt) } : undefined;
  const span = tracer().startSpan('webhook attempt', { kind: SpanKind.CLIENT, attributes }, parent);
  const active = trace.setSpan(parent, span);
  const headers = { ...input.headers };
  propagation.inject(active, headers);
  try {
    const result = await context.with(active, () => post(headers));
    if (described) describeOutcome(span, result);
    const spanContext = span.spanContext();
    // No provider (a bare test of the sender): no trace to name.
    if (!isSpanContextValid(spanContext)) return result;
    return { ...result, traceId: spanContext.traceId, spanId: spanContext.spanId };
  } finally {
    span.end();
  }
}

function describeOutcome(span: Span, result: AttemptResult): void {
  if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
  span.setAttribute('webhook.duration_ms', result.durationMs);
  if (result.error !== null) span.setAttribute('error.type', result.error);
  if (result.statusCode === null || result.statusCode >= 300) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? `HTTP ${result.statusCode}` });
}

function target(url: string): Record<string, string | number> {
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return { 'url.full': parsed.origin, 'server.address': parsed.hostname, 'server.port': port };
  } catch {
    return {};
  }
}

function labels(attempt: AttemptLabel | undefined): Record<string, string | number> {
  if (!attempt) return {};
  return {
    'webhook.delivery_id': attempt.deliveryId,
    'webhook.event_id': attempt.eventId,
    'webhook.event_type': attempt.eventType,
    'webhook.subscription_id': attempt.subscriptionId,
    'webhook.tenant_id': attempt.tenantId,
    'webhook.attempt': attempt.number,
  };
}
