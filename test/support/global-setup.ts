import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { migrate } from '../../src/infrastructure/persistence/migrations/migrate';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { ISOLATED_PREFIX, templateDatabaseUrl, testDatabaseUrl, withAdmin } from './test-database-url';

/**
 * Once per run: the portal page's assets, a template database with the production migrations (never connected to after
 * this, so `CREATE DATABASE … TEMPLATE` can copy it), and the shared test database made from it.
 */
export default async function globalSetup(): Promise<void> {
  // The portal page's assets, which the API serves from dist/portal (npm run build makes them too).
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-portal.mjs')], { stdio: 'inherit' });
  const url = new URL(testDatabaseUrl());
  const template = templateDatabaseUrl();
  await recreate(template);
  const orm = await MikroORM.init(createOrmConfig(template, 2));
  await migrate(orm);
  await orm.close(true);
  await recreate(url.toString(), new URL(template).pathname.slice(1));
  await dropLeftoverIsolatedDatabases(url.toString());
}

async function recreate(databaseUrl: string, template?: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  await withAdmin(databaseUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  });
}

/** Databases of isolated tests that a killed run left behind. */
async function dropLeftoverIsolatedDatabases(databaseUrl: string): Promise<void> {
  await withAdmin(databaseUrl, async (client) => {
    const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE '${ISOLATED_PREFIX}%'`);
    for (const row of rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  });
}
