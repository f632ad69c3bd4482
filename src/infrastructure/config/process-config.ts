import type { EnvReader } from './env-reader';
import { hostName, key32, oneOf } from './value-parsers';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const SERVICE_ROLES = ['all', 'api', 'worker'] as const;

/** Where the process listens, and for which environment. */
export interface ListenConfig {
  nodeEnv: (typeof NODE_ENVS)[number];
  host: string;
  port: number;
}

/** How the process runs: what it logs, where it keeps state, how it starts and stops. */
export interface RuntimeConfig {
  logLevel: LogLevel;
  docsEnabled: boolean;
  /** Where development state lives (embedded PostgreSQL data, generated keys). */
  dataDir: string;
  shutdownGraceMs: number;
  /** Whether the API, worker and CLI apply pending migrations when they open the database. */
  migrateOnStart: boolean;
  /** `all` runs the API and the webhook worker in one process; `api` or `worker` runs one. */
  serviceRole: (typeof SERVICE_ROLES)[number];
  /** base64 of 32 bytes; absent in development means "generated once under dataDir". */
  secretsEncryptionKey?: Buffer;
}

export function listenConfig({ read, integer }: EnvReader): ListenConfig {
  return {
    nodeEnv: read('NODE_ENV', 'development', oneOf(NODE_ENVS), NODE_ENVS.join(' | ')),
    host: read('HOST', '0.0.0.0', hostName, 'a host name or address'),
    port: integer('PORT', 3000, 0, 65535),
  };
}

export function runtimeConfig({ read, integer, flag }: EnvReader): RuntimeConfig {
  return {
    logLevel: read('LOG_LEVEL', 'info', oneOf(LOG_LEVELS), LOG_LEVELS.join(' | ')),
    docsEnabled: flag('DOCS_ENABLED', true),
    dataDir: read('DATA_DIR', '.data', (raw) => raw, 'a path'),
    // Above WEBHOOK_TIMEOUT_MS (10 s): an attempt in flight at a deploy finishes instead of being
    // cut and sent again after its lease.
    shutdownGraceMs: integer('SHUTDOWN_GRACE_MS', 15000, 0, 600000),
    migrateOnStart: flag('MIGRATE_ON_START', true),
    serviceRole: read('SERVICE_ROLE', 'all', oneOf(SERVICE_ROLES), SERVICE_ROLES.join(' | ')),
    secretsEncryptionKey: read('SECRETS_ENCRYPTION_KEY', undefined, key32, 'base64 of exactly 32 bytes'),
  };
}
