import { Context, context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import type { TraceCarrier } from '../../application/webhook/delivery/delivery-job';

/**
 * The active trace context as W3C headers (`traceparent`, and `tracestate` when there is one), or
 * null outside any span: what an outbox row keeps so that the attempts join the request's trace.
 */
export function currentTraceCarrier(): TraceCarrier | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (!carrier.traceparent) return null;
  return { traceparent: carrier.traceparent, tracestate: carrier.tracestate ?? null };
}

/** The remote context a stored carrier names (the root context when there is none). */
export function contextOf(carrier: TraceCarrier | null): Context {
  if (!carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier.tracestate ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : { traceparent: carrier.traceparent });
}
