/**
 * The one logger type of the project: `(fields, message)`, one JSON line per call. Declared here
 * so that driving adapters do not depend on the logging adapter; pino's logger fits it
 * (infrastructure/logging/logger.ts makes one).
 */
export interface Logger {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  trace: LogMethod;
}

/** A line with fields and a message, or a message alone. */
export interface LogMethod {
  (fields: object, message?: string): void;
  (message: string): void;
}

export const LOGGER = Symbol('LOGGER');
