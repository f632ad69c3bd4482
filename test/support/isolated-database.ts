import { randomBytes } from 'node:crypto';
import { ISOLATED_PREFIX, templateDatabaseUrl, withAdmin } from './test-database-url';

/**
 * A migrated database of its own, copied from the template: for tests whose webhook worker reads
 * the whole outbox and must not take another test's events.
 */
export async function isolatedDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${ISOLATED_PREFIX}${randomBytes(6).toString('hex')}`;
  const template = templateDatabaseUrl();
  await withAdmin(template, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${new URL(template).pathname.slice(1)}"`));
  const url = new URL(template);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(template, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
