import { propagation, SpanKind, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { attemptIds } from '../../../../src/infrastructure/tracing/attempt-ids';
import { contextOf } from '../../../../src/infrastructure/tracing/trace-carrier';
import { samplerOf } from '../../../../src/infrastructure/tracing/tracing';
import type { SamplerSettings } from '../../../../src/infrastructure/tracing/tracing-settings';

// Without an exporter an attempt's span is only its ids (attempt-ids.ts). What the receiver gets
// must be what the SDK's own span would have sent: the same trace, sampling and trace state, with
// a span id of its own.
beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
afterAll(() => propagation.disable());

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT_SPAN = 'b7ad6b7169203331';
const carriers = [
  { traceparent: `00-${TRACE}-${PARENT_SPAN}-01`, tracestate: null },
  { traceparent: `00-${TRACE}-${PARENT_SPAN}-00`, tracestate: null },
  { traceparent: `00-${TRACE}-${PARENT_SPAN}-01`, tracestate: 'acme=1,other=x' },
  { traceparent: 'not-a-trace', tracestate: null },
  { traceparent: `00-${'0'.repeat(32)}-${PARENT_SPAN}-01`, tracestate: null },
  null,
];
const samplers: SamplerSettings[] = [
  { kind: 'always_on', parentBased: true, ratio: 1 },
  { kind: 'always_off', parentBased: true, ratio: 1 },
  { kind: 'always_on', parentBased: false, ratio: 1 },
  { kind: 'traceidratio', parentBased: true, ratio: 0 },
  { kind: 'traceidratio', parentBased: false, ratio: 1 },
];
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

/** What the SDK's span, started where the attempt starts its own, sends on. */
function sdkHeaders(carrier: (typeof carriers)[number], settings: SamplerSettings): Record<string, string> {
  const span = new TracerProvider({ sampler: samplerOf(settings) }).getTracer('t').startSpan('webhook attempt', { kind: SpanKind.CLIENT }, contextOf(carrier));
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(contextOf(carrier), span), headers);
  span.end();
  return headers;
}

describe('attemptIds (an attempt’s span when spans are not exported)', () => {
  it.each(samplers.flatMap((sampler) => carriers.map((carrier) => [sampler, carrier] as const)))('sends what the SDK’s span would: %j, %j', (settings, carrier) => {
    const ids = attemptIds(carrier, samplerOf(settings));
    const sdk = sdkHeaders(carrier, settings);
    const [, traceId, spanId, flags] = TRACEPARENT.exec(ids.traceparent)!;
    const [, sdkTrace, , sdkFlags] = TRACEPARENT.exec(sdk.traceparent)!;
    expect([traceId, spanId]).toEqual([ids.traceId, ids.spanId]);
    expect(flags).toBe(sdkFlags);
    expect(ids.tracestate).toBe(sdk.tracestate ?? null);
    expect(spanId).not.toBe(PARENT_SPAN);
    expect(spanId).not.toBe('0'.repeat(16));
    if (carrier?.traceparent.startsWith(`00-${TRACE}`)) expect([traceId, sdkTrace]).toEqual([TRACE, TRACE]);
    else expect(traceId).not.toMatch(/^0+$|^0af7651916cd/);
  });

  it('names a new span every time, in a new trace every time there is none to continue', () => {
    const sampler = samplerOf(samplers[0]);
    const continued = Array.from({ length: 100 }, () => attemptIds(carriers[0], sampler));
    expect(new Set(continued.map((ids) => ids.spanId)).size).toBe(100);
    expect(new Set(continued.map((ids) => ids.traceId))).toEqual(new Set([TRACE]));
    const fresh = Array.from({ length: 100 }, () => attemptIds(null, sampler));
    expect(new Set(fresh.map((ids) => ids.traceId)).size).toBe(100);
  });
});
