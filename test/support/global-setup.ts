import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { migrate } from '../../src/infrastructure/persistence/migrate';
import { createOrmConfig } from '../../src/infrastructure/persistence/mikro-orm.config';
import { testDatabaseUrl } from './test-database-url';

/** A fresh test database with the production migrations, once per run. */
export default async function globalSetup(): Promise<void> {
  const url = new URL(testDatabaseUrl());
  const name = url.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const orm = await MikroORM.init(createOrmConfig(url.toString(), 2));
  await migrate(orm);
  await orm.close(true);
}
