import { MikroORM } from '@mikro-orm/postgresql';

/** Applies pending migrations; returns the names applied, in order. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((migration) => migration.name);
}
