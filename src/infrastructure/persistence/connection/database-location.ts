import { join, resolve } from 'node:path';
import { Client } from 'pg';
import type { Logger } from '../../../application/shared/logger.port';
import { answers } from '../../net/tcp-probe';
import { startEmbeddedPostgres } from './embedded-postgres';

export const DEFAULT_DATABASE_NAME = 'landing_api';
export const LOCAL_POSTGRES = { host: '127.0.0.1', port: 5432 };
export const EMBEDDED_PORT = 54329;

export interface DatabaseLocation {
  url: string;
  source: 'configured' | 'local' | 'embedded';
  /** Stops the embedded server; absent for the other sources. */
  stop?: () => Promise<void>;
}

/** Which database to use when DATABASE_URL is not set (README, Quick start). Pure, for tests. */
export function chooseDefaultSource(localAnswers: boolean): 'local' | 'embedded' {
  return localAnswers ? 'local' : 'embedded';
}

/**
 * DATABASE_URL when set; else the local PostgreSQL if it answers on 127.0.0.1:5432; else an
 * embedded PostgreSQL with its data under `<dataDir>/postgres`. The database is created if missing.
 */
export async function locateDatabase(options: {
  configuredUrl?: string;
  dataDir: string;
  logger: Logger;
  local?: { host: string; port: number };
  embeddedPort?: number;
}): Promise<DatabaseLocation> {
  const { configuredUrl, dataDir, logger, local = LOCAL_POSTGRES, embeddedPort = EMBEDDED_PORT } = options;
  if (configuredUrl) {
    await ensureDatabase(configuredUrl);
    return { url: configuredUrl, source: 'configured' };
  }
  const source = chooseDefaultSource(await answers(local.host, local.port));
  if (source === 'local') {
    const url = `postgres://postgres@${local.host}:${local.port}/${DEFAULT_DATABASE_NAME}`;
    await ensureDatabase(url);
    logger.info({ database: `local PostgreSQL ${local.host}:${local.port}` }, 'DATABASE_URL not set: using the local PostgreSQL');
    return { url, source };
  }
  const dir = resolve(join(dataDir, 'postgres'));
  const url = `postgres://postgres:postgres@127.0.0.1:${embeddedPort}/${DEFAULT_DATABASE_NAME}`;
  if (await answers('127.0.0.1', embeddedPort)) {
    // Another process of ours (the API while the CLI runs, or one that was killed) already
    // serves the embedded database: use it, and leave stopping it to its owner.
    await ensureDatabase(url);
    logger.info({ port: embeddedPort }, 'DATABASE_URL not set: using the embedded PostgreSQL already running');
    return { url, source: 'embedded' };
  }
  const stop = await startEmbeddedPostgres(dir, embeddedPort, logger);
  try {
    await ensureDatabase(url);
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info({ dataDir: dir, port: embeddedPort }, `DATABASE_URL not set and nothing on ${local.host}:${local.port}: started an embedded PostgreSQL`);
  return { url, source: 'embedded', stop };
}

/** Creates the URL's database when it does not exist (two starting processes may race: fine). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  // A cut between two of its statements comes as an 'error' event, which without a listener ends
  // the process with a stack instead of failing its start (as the migration lock's did: migrate.ts).
  // Heard here, it fails the next statement, and the start.
  client.on('error', () => {});
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        // duplicate_database, or a unique violation on pg_database: another process won the race.
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await client.end();
  }
}
