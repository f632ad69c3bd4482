import { createLogger } from '../../src/infrastructure/logging/logger';
import type { Logger } from '../../src/application/shared/logger.port';

/**
 * The production logger writing nothing, or into `lines` when a test reads what was logged.
 * TEST_LOG=1 writes warnings and errors to stderr instead of nothing (to see why a worker fails).
 */
export function testLogger(lines?: string[]): Logger {
  if (!lines) return process.env.TEST_LOG ? createLogger('warn', 'api', { write: (line: string) => void process.stderr.write(line) }) : createLogger('silent');
  return createLogger('trace', 'api', { write: (line: string) => void lines.push(line) });
}
