import { DatabaseSchema, type MikroORM } from '@mikro-orm/postgresql';
import { UNMAPPED_PARTS, UNMAPPED_TABLES } from './schema-exceptions';

const unmapped = (name: string) => UNMAPPED_TABLES.some((table) => table.pattern.test(name));

/**
 * The statements that would make the database's schema the one the entities describe (MikroORM's
 * schema diff): none when the migrations and the entities agree. The tables and partitions of
 * UNMAPPED_TABLES are left out on the database's side, partitions included. Read-only.
 */
export async function schemaDrift(orm: MikroORM): Promise<string[]> {
  const { skipTables, skipViews } = orm.config.get('schemaGenerator');
  const connection = orm.em.getConnection();
  const fromSchema = await DatabaseSchema.create(connection, orm.em.getPlatform(), orm.config, undefined, undefined, undefined, skipTables, skipViews);
  for (const table of fromSchema.getTables()) {
    const partitioning = table.getPartitioning();
    if (partitioning) table.setPartitioning({ ...partitioning, partitions: partitioning.partitions.filter((partition) => !unmapped(partition.name)) });
  }
  const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true, fromSchema });
  return sql
    .split(/;\s*\n/)
    .map((statement) => statement.trim().replace(/;$/, ''))
    .filter((statement) => statement.length > 0 && !/^set names|^set session_replication_role/i.test(statement))
    .filter((statement) => !UNMAPPED_PARTS.some((part) => part.statement?.test(statement)));
}
