import { ConfigError } from '../config/config-error';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** The batch span processor's settings, from OTEL_BSP_* (the SDK's defaults where unset). */
export interface BatchSettings {
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
}

/** OTEL_TRACES_SAMPLER with its argument: which traces are recorded (and marked sampled downstream). */
export interface SamplerSettings {
  kind: 'always_on' | 'always_off' | 'traceidratio';
  /** Whether a parent's decision is followed (the `parentbased_` kinds). */
  parentBased: boolean;
  /** For traceidratio: the share of new traces recorded. */
  ratio: number;
}

export interface TracingSettings {
  /** Null: nothing is exported and no exporter or instrumentation is started. */
  export: { protocol: OtlpProtocol; batch: BatchSettings } | null;
  sampler: SamplerSettings;
}

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'];

/**
 * What the standard OpenTelemetry variables ask for (the exporter itself reads the endpoint,
 * headers, timeout and compression variables). Spans are exported when an OTLP endpoint is set,
 * for all signals or for traces, unless OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none says no.
 * gRPC is refused at start rather than ignored: the operator asked for something not sent.
 */
export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings {
  const problems: string[] = [];
  const sampler = samplerSettings(env, problems);
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const off = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
  if (!endpoint || off) {
    if (problems.length > 0) throw new ConfigError(problems);
    return { export: null, sampler };
  }
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
  return { export: { protocol: protocol as OtlpProtocol, batch }, sampler };
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/**
 * The specification's sampler variables (the SDK's own default, parentbased_always_on, when
 * unset): the lever an operator has on what export costs.
 */
function samplerSettings(env: NodeJS.ProcessEnv, problems: string[]): SamplerSettings {
  const name = (env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on');
  if (!SAMPLERS.includes(name)) {
    problems.push(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got ${JSON.stringify(name)})`);
    return { kind: 'always_on', parentBased: true, ratio: 1 };
  }
  const parentBased = name.startsWith('parentbased_');
  const kind = name.replace('parentbased_', '') as SamplerSettings['kind'];
  let ratio = 1;
  if (kind === 'traceidratio') {
    const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    ratio = raw ? Number(raw) : 1;
    if (!(ratio >= 0 && ratio <= 1)) problems.push('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  }
  return { kind, parentBased, ratio };
}
