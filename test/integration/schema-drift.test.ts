import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { schemaDrift } from '../../src/infrastructure/persistence/entities/schema-drift';
import { isolatedDatabase } from '../support/isolated-database';

// The migrations, applied to an empty database (the suite's template), make exactly the schema the
// entities describe, beyond the named exceptions (entities/schema-exceptions.ts, decisions.md 183).
let db: Awaited<ReturnType<typeof isolatedDatabase>>;
let orm: MikroORM;
beforeAll(async () => {
  db = await isolatedDatabase();
  orm = await MikroORM.init(createOrmConfig(db.url, 2));
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('the schema and its entities', () => {
  it('agree: the diff from the migrated schema to the entities is empty', async () => {
    expect(await schemaDrift(orm)).toEqual([]);
  });

  it('disagree as soon as a migration adds a column no entity has, or drops one an entity has', async () => {
    await orm.em.getConnection().execute('ALTER TABLE brands ADD COLUMN drift_probe text');
    expect((await schemaDrift(orm)).join('\n')).toMatch(/drift_probe/);
    await orm.em.getConnection().execute('ALTER TABLE brands DROP COLUMN drift_probe, DROP COLUMN company_home_page');
    expect((await schemaDrift(orm)).join('\n')).toMatch(/company_home_page/);
  });
});
