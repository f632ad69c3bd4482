import pino from 'pino';
import type { Logger } from '../../src/infrastructure/logging/logger';

/** A logger that writes nothing, or into `lines` when a test reads what was logged. */
export function testLogger(lines?: string[]): Logger {
  if (!lines) return pino({ level: 'silent' });
  return pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
}
