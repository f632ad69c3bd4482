import { createLogger } from '../../src/infrastructure/logging/logger';
import type { Logger } from '../../src/application/shared/logger.port';

/** The production logger writing nothing, or into `lines` when a test reads what was logged. */
export function testLogger(lines?: string[]): Logger {
  if (!lines) return createLogger('silent');
  return createLogger('trace', 'api', { write: (line: string) => void lines.push(line) });
}
