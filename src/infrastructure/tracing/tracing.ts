import { Attributes, Context, context, createContextKey, Link, propagation, SpanKind, trace, Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, Sampler, SamplingResult, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { SamplerSettings, tracingSettings, TracingSettings } from './tracing-settings';

/** The service's name in traces unless OTEL_SERVICE_NAME names it otherwise. */
export const TRACE_SERVICE_NAME = 'landing-customer-api';

let provider: TracerProvider | undefined;
let exporting = false;
let sampler: Sampler | undefined;

/**
 * Trace context, always on: W3C trace context in and out, a span per request and per attempt.
 * Without an exporter the spans go nowhere (no processor, no timer, no instrumentation): what is
 * left is reading one header, making ids and writing one header. With OTEL_EXPORTER_OTLP_ENDPOINT
 * (tracing-settings.ts) spans are batched to it over OTLP/HTTP, and the PostgreSQL and Redis
 * clients are instrumented, under a span only (a worker's own statements start no trace).
 *
 * Called first thing by the service process, before `pg` and `ioredis` are loaded: the
 * instrumentations patch modules as they are required. Later calls (an app composed in a test)
 * do nothing.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): TracingSettings {
  const settings = tracingSettings(env);
  if (provider) return settings;
  const resource = resourceFromAttributes({ 'service.name': TRACE_SERVICE_NAME }).merge(detectResources({ detectors: [envDetector] }));
  const spanProcessors = settings.export
    ? [new BatchSpanProcessor({ exporter: settings.export.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter(), ...settings.export.batch })]
    : [];
  sampler = samplerOf(settings.sampler);
  provider = new TracerProvider({ resource, spanProcessors, sampler });
  exporting = settings.export !== null;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  if (settings.export) {
    registerInstrumentations({
      tracerProvider: provider,
      // A span per statement, not two: the pool's connect spans say nothing a statement's does not.
      // Statements without their values, Redis commands without their arguments: parameters hold
      // customer data, and script arguments key hashes, tenant and key ids and client addresses.
      instrumentations: [
        new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true, enhancedDatabaseReporting: false }),
        new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      ],
    });
    // MikroORM (ESM) imports `pg`; loading it here through require puts the patched module in the
    // cache that import then reads.
    require('pg');
    require('ioredis');
  }
  return settings;
}

export function samplerOf(settings: SamplerSettings): Sampler {
  const root = settings.kind === 'always_on' ? new AlwaysOnSampler() : settings.kind === 'always_off' ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(settings.ratio);
  return new CallerAwareSampler(settings.parentBased ? new ParentBasedSampler({ root }) : root, root);
}

/**
 * Set by the API on a request whose caller presented no valid key (server-span.middleware.ts,
 * same description): its `traceparent`'s sampled flag is not followed.
 */
const UNTRUSTED_PARENT = createContextKey('landing-customer-api.untrusted-parent');

/**
 * The configured sampler, except for an untrusted caller's span: that one is decided by the root
 * sampler alone (as a new trace would be, on its trace id), so a request without a valid key
 * cannot make the service record and export spans. The trace id is the caller's either way.
 */
class CallerAwareSampler implements Sampler {
  constructor(
    private readonly configured: Sampler,
    private readonly root: Sampler,
  ) {}

  shouldSample(parent: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    const sampler = parent.getValue(UNTRUSTED_PARENT) === true ? this.root : this.configured;
    return sampler.shouldSample(parent, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `CallerAware{${this.configured.toString()}}`;
  }
}

/** Exports what is still buffered; the process calls it as it stops. */
export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
}

/**
 * Whether spans leave the process. Without an exporter a span's attributes go nowhere, so the
 * code that makes them (parsing a URL per webhook attempt) can skip them; its ids and context
 * are still made and sent on.
 */
export function spansExported(): boolean {
  return exporting;
}

/**
 * The configured sampler when spans are made but leave the process nowhere (tracing started, no
 * exporter): an attempt then needs only its span's ids and sampled flag (attempt-ids.ts). Null when
 * spans are exported, or when tracing was never started.
 */
export function unexportedSampler(): Sampler | null {
  return exporting ? null : (sampler ?? null);
}

/** The tracer of the worker's spans (instrumentation scope `landing-customer-api.webhooks`). */
export function tracer(): Tracer {
  return trace.getTracer(`${TRACE_SERVICE_NAME}.webhooks`);
}
