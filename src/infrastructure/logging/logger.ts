import { trace } from '@opentelemetry/api';
import pino, { DestinationStream } from 'pino';
import type { Logger } from '../../application/shared/logger.port';
import { LogLevel } from '../config/process-config';

// Structured JSON on stdout. Anything that may carry a key or a secret is censored by path, as a
// second line of defence: the code never logs headers or bodies in the first place.
export function createLogger(level: LogLevel, name = 'api', to: 1 | 2 | DestinationStream = 1): Logger {
  return pino(
    {
    name,
    level,
    base: { service: 'landing-customer-api', process: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // The trace of what the line is about, when it is written inside a span (a request, an attempt).
    mixin: traceFields,
    redact: {
      paths: ['apiKey', '*.apiKey', 'headers', '*.headers', 'signingSecret', '*.signingSecret', 'password', '*.password'],
      censor: '[redacted]',
    },
    },
    typeof to === 'number' ? pino.destination({ fd: to, sync: to === 2 }) : to,
  );
}


function traceFields(): { traceId?: string; spanId?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}
