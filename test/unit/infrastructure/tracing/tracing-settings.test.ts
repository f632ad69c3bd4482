import { ConfigError } from '../../../../src/infrastructure/config/config-error';
import { tracingSettings } from '../../../../src/infrastructure/tracing/tracing-settings';

const DEFAULT_BATCH = { scheduledDelayMillis: 5000, exportTimeoutMillis: 30000, maxQueueSize: 2048, maxExportBatchSize: 512 };

describe('tracingSettings (the standard OTEL_* variables)', () => {
  it('exports nothing when no OTLP endpoint is set', () => {
    expect(tracingSettings({}).export).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'x' }).export).toBeNull();
  });

  it('exports over http/protobuf by default, to the endpoint for all signals or for traces', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).export).toEqual({ protocol: 'http/protobuf', batch: DEFAULT_BATCH });
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }).export?.protocol).toBe('http/protobuf');
  });

  it('takes the protocol for traces before the one for all signals', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' };
    expect(tracingSettings(env).export?.protocol).toBe('http/json');
  });

  it('is off when OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER is none, whatever the endpoint', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'TRUE' }).export).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' }).export).toBeNull();
  });

  it('honours the batch processor’s variables, a batch never larger than the queue', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_BSP_EXPORT_TIMEOUT: '2000', OTEL_BSP_MAX_QUEUE_SIZE: '64', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512' };
    expect(tracingSettings(env).export?.batch).toEqual({ scheduledDelayMillis: 100, exportTimeoutMillis: 2000, maxQueueSize: 64, maxExportBatchSize: 64 });
  });

  it('samples as OTEL_TRACES_SAMPLER says, parent-based and always on by default', () => {
    expect(tracingSettings({}).sampler).toEqual({ kind: 'always_on', parentBased: true, ratio: 1 });
    expect(tracingSettings({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }).sampler).toEqual({ kind: 'traceidratio', parentBased: true, ratio: 0.1 });
    expect(tracingSettings({ OTEL_TRACES_SAMPLER: 'always_off' }).sampler).toEqual({ kind: 'always_off', parentBased: false, ratio: 1 });
    expect(() => tracingSettings({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(ConfigError);
    expect(() => tracingSettings({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  });

  it('refuses gRPC and malformed numbers at start, naming the variable', () => {
    const refused = (env: Record<string, string>) => {
      try {
        tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
      throw new Error('accepted');
    };
    expect(refused({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual(['OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got "grpc")']);
    expect(refused({ OTEL_BSP_SCHEDULE_DELAY: 'soon', OTEL_BSP_MAX_QUEUE_SIZE: '0' })).toEqual([
      'OTEL_BSP_SCHEDULE_DELAY must be an integer of at least 0',
      'OTEL_BSP_MAX_QUEUE_SIZE must be an integer of at least 1',
    ]);
  });
});
