import { Client } from 'pg';

/** TEST_DATABASE_URL, or the local PostgreSQL's `landing_api_test` database. */
export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/landing_api_test';
}

/** The migrated template every test database is copied from. */
export function templateDatabaseUrl(): string {
  const url = new URL(testDatabaseUrl());
  url.pathname = `${url.pathname}_template`;
  return url.toString();
}

/**
 * Names of isolated databases begin with this, the test database's name in it: a run drops what
 * a killed run of the same database left behind, never the databases of a run of another.
 */
export const ISOLATED_PREFIX = `lp_isolated_${new URL(testDatabaseUrl()).pathname.slice(1)}_`;

/** Runs `work` with a connection to the server's `postgres` database. */
export async function withAdmin<T>(databaseUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
