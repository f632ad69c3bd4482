import { MikroORM } from '@mikro-orm/postgresql';
import { sqlIn } from '../support/database';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
