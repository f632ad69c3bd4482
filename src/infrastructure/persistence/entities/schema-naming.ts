import { UnderscoreNamingStrategy } from '@mikro-orm/postgresql';

/**
 * MikroORM's names, but a foreign key and a unique constraint named as PostgreSQL names them when
 * a migration leaves the name out (`<table>_<columns>_fkey`, `_key`): the migrations written by
 * hand before the entities did, and the schema diff must not read every one as renamed.
 */
export class SchemaNamingStrategy extends UnderscoreNamingStrategy {
  override indexName(tableName: string, columns: string[], type: Parameters<UnderscoreNamingStrategy['indexName']>[2]): string {
    if (type === 'foreign') return super.indexName(tableName, columns, 'fkey' as never);
    if (type === 'unique') return super.indexName(tableName, columns, 'key' as never);
    return super.indexName(tableName, columns, type);
  }
}
