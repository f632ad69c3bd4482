import { ConfigError } from '../config/app-config';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** The batch span processor's settings, from OTEL_BSP_* (the SDK's defaults where unset). */
export interface BatchSettings {
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
}

export interface TracingSettings {
  /** Null: nothing is exported and no exporter or instrumentation is started. */
  export: { protocol: OtlpProtocol; batch: BatchSettings } | null;
}

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'];

/**
 * What the standard OpenTelemetry variables ask for (the exporter itself reads the endpoint,
 * headers, timeout and compression variables). Spans are exported when an OTLP endpoint is set,
 * for all signals or for traces, unless OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none says no.
 * gRPC is refused at start rather than ignored: the operator asked for something not sent.
 */
export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const off = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
  if (!endpoint || off) return { export: null };
  const problems: string[] = [];
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim();
  if (!PROTOCOLS.includes(protocol)) problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got ${JSON.stringify(protocol)})`);
  const number = (name: string, fallback: number, min: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) problems.push(`${name} must be an integer of at least ${min}`);
    return value;
  };
  const batch: BatchSettings = {
    scheduledDelayMillis: number('OTEL_BSP_SCHEDULE_DELAY', 5000, 0),
    exportTimeoutMillis: number('OTEL_BSP_EXPORT_TIMEOUT', 30000, 1),
    maxQueueSize: number('OTEL_BSP_MAX_QUEUE_SIZE', 2048, 1),
    maxExportBatchSize: number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, 1),
  };
  // As the specification says: a batch never larger than the queue.
  batch.maxExportBatchSize = Math.min(batch.maxExportBatchSize, batch.maxQueueSize);
  if (problems.length > 0) throw new ConfigError(problems);
  return { export: { protocol: protocol as OtlpProtocol, batch } };
}
