import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Response } from 'express';
import type { ApiRequest } from '../api-request';

/** The instrumentation scope of the API's spans (the provider is set up by the composition). */
const TRACER = 'landing-customer-api.http';

/**
 * Runs every request in a SERVER span that continues the caller's W3C `traceparent` (a new trace
 * when it sent none or a malformed one): what the request does, the events it writes included,
 * belongs to that trace. Named by its route pattern once routing has found it, never by the raw
 * path (ids would make every name unique).
 */
export function serverSpan(req: ApiRequest, res: Response, next: NextFunction): void {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = trace.getTracer(TRACER).startSpan(
    req.method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path, 'url.scheme': req.protocol } },
    parent,
  );
  const { traceId, spanId } = span.spanContext();
  req.traceId = traceId;
  req.spanId = spanId;
  res.once('close', () => {
    const route = (req.route as { path?: string } | undefined)?.path;
    if (route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    if (req.principal) span.setAttribute('tenant.id', req.principal.tenantId);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(trace.setSpan(parent, span), next);
}
