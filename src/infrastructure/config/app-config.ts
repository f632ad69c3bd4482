// Configuration comes from the environment only, checked once at start: a bad value stops the
// process with a message naming the variable (README, Configuration).

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NODE_ENVS = ['development', 'production', 'test'] as const;

export interface AppConfig {
  nodeEnv: (typeof NODE_ENVS)[number];
  host: string;
  port: number;
  /** Absent: the local PostgreSQL if it answers on 127.0.0.1:5432, else an embedded one. */
  databaseUrl?: string;
  databasePoolMax: number;
  /** Absent: the local Redis if it answers (used from the webhooks issue on). */
  redisUrl?: string;
  logLevel: LogLevel;
  docsEnabled: boolean;
  /** Where development state lives (embedded PostgreSQL data, generated keys). */
  dataDir: string;
  shutdownGraceMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const read = <T>(name: string, fallback: T, parse: (raw: string) => T | undefined, expected: string): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = parse(raw.trim());
    if (value === undefined) problems.push(`${name} must be ${expected} (got "${redact(name, raw)}")`);
    return value ?? fallback;
  };

  const config: AppConfig = {
    nodeEnv: read('NODE_ENV', 'development', oneOf(NODE_ENVS), NODE_ENVS.join(' | ')),
    host: read('HOST', '0.0.0.0', (raw) => (/^[\w.:-]+$/.test(raw) ? raw : undefined), 'a host name or address'),
    port: read('PORT', 3000, integerIn(0, 65535), 'an integer from 0 to 65535'),
    databaseUrl: read('DATABASE_URL', undefined, urlWith(['postgres:', 'postgresql:']), 'a postgres:// URL'),
    databasePoolMax: read('DATABASE_POOL_MAX', 10, integerIn(1, 200), 'an integer from 1 to 200'),
    redisUrl: read('REDIS_URL', undefined, urlWith(['redis:', 'rediss:']), 'a redis:// or rediss:// URL'),
    logLevel: read('LOG_LEVEL', 'info', oneOf(LOG_LEVELS), LOG_LEVELS.join(' | ')),
    docsEnabled: read('DOCS_ENABLED', true, boolean, 'true or false'),
    dataDir: read('DATA_DIR', '.data', (raw) => raw, 'a path'),
    shutdownGraceMs: read('SHUTDOWN_GRACE_MS', 10000, integerIn(0, 600000), 'an integer from 0 to 600000'),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function oneOf<T extends string>(values: readonly T[]) {
  return (raw: string): T | undefined => (values.includes(raw as T) ? (raw as T) : undefined);
}

function integerIn(min: number, max: number) {
  return (raw: string): number | undefined => {
    if (!/^\d+$/.test(raw)) return undefined;
    const n = Number(raw);
    return n >= min && n <= max ? n : undefined;
  };
}

function boolean(raw: string): boolean | undefined {
  return raw === 'true' ? true : raw === 'false' ? false : undefined;
}

function urlWith(protocols: string[]) {
  return (raw: string): string | undefined => {
    try {
      return protocols.includes(new URL(raw).protocol) ? raw : undefined;
    } catch {
      return undefined;
    }
  };
}

/** Connection strings may hold passwords: an error message shows only their scheme. */
function redact(name: string, raw: string): string {
  return name.endsWith('_URL') ? `${raw.split(':')[0]}:…` : raw.slice(0, 40);
}
