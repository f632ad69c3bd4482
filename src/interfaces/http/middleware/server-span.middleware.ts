import { context, Context, createContextKey, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Response } from 'express';
import type { ApiRequest } from '../api-request';
import { admitted } from './early-admission.middleware';

/** The instrumentation scope of the API's spans (the provider is set up by the composition). */
const TRACER = 'landing-customer-api.http';

/**
 * Marks a caller whose `traceparent` may not decide sampling. The service's sampler reads it by the
 * same description (infrastructure/tracing/tracing.ts; `createContextKey` is `Symbol.for`), so
 * neither adapter imports the other.
 */
const UNTRUSTED_PARENT = createContextKey('landing-customer-api.untrusted-parent');

/**
 * Runs every request in a SERVER span that continues the caller's W3C `traceparent` (a new trace
 * when it sent none or a malformed one): what the request does, the events it writes included,
 * belongs to that trace. Named by its route pattern once routing has found it, never by the raw
 * path (ids would make every name unique). The caller's sampled flag is followed only when its
 * key is valid: anyone else could make the service record and export spans at will. Their trace
 * id is still kept (for correlation); the service's own sampler decides as for a new trace.
 */
export function serverSpan(req: ApiRequest, res: Response, next: NextFunction): void {
  const known = admitted(req);
  if (!known) return startSpan(req, res, next, false);
  void known.then((valid) => startSpan(req, res, next, valid));
}

function startSpan(req: ApiRequest, res: Response, next: NextFunction, knownCaller: boolean): void {
  const parent = callerContext(req, knownCaller);
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

function callerContext(req: ApiRequest, knownCaller: boolean): Context {
  const extracted = propagation.extract(ROOT_CONTEXT, req.headers);
  return knownCaller ? extracted : extracted.setValue(UNTRUSTED_PARENT, true);
}
