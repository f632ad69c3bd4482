import { ConfigError } from '../infrastructure/config/config-error';
import { startTracing } from '../infrastructure/tracing/tracing';

// Imported first by the service process (src/main.ts), before any module loads `pg` or `ioredis`,
// so that the instrumentations an exporter asks for can patch them. A bad OTEL_* variable stops
// the start with its message, like any other configuration.
try {
  startTracing();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
