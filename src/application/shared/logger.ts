/**
 * The structured logger the outer layers share: `(fields, message)`, one JSON line per call.
 * Declared here so that driving adapters do not depend on the logging adapter (pino fits it).
 */
export interface Logger {
  error(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  debug(fields: object, message?: string): void;
}

export const LOGGER = Symbol('LOGGER');
