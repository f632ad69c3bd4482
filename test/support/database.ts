import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../src/infrastructure/persistence/mikro-orm.config';
import { testDatabaseUrl } from './test-database-url';

export function openTestOrm(url = testDatabaseUrl()): Promise<MikroORM> {
  return MikroORM.init(createOrmConfig(url, 4));
}

/** Runs `work` in its own EntityManager context, as a request or a CLI command does. */
export function inContext<T>(orm: MikroORM, work: () => Promise<T>): Promise<T> {
  return RequestContext.create(orm.em, work);
}
