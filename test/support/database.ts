import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../src/infrastructure/persistence/connection/mikro-orm.config';
import { MikroOrmUnitOfWork } from '../../src/infrastructure/persistence/connection/mikro-orm-unit-of-work';
import { testDatabaseUrl } from './test-database-url';

export function openTestOrm(url = testDatabaseUrl()): Promise<MikroORM> {
  return MikroORM.init(createOrmConfig(url, 4));
}

/** Runs `work` in its own EntityManager context, as a request or a CLI command does. */
export function inContext<T>(orm: MikroORM, work: () => Promise<T>): Promise<T> {
  return RequestContext.create(orm.em, work);
}

/**
 * Runs `work` in a unit of work of its own context, as a use case does: adapters inside use
 * `orm.em`, which there is the transaction's (`run`), or, with `oneWrite`, autocommit
 * (`runOneWrite`).
 */
export function inUnitOfWork<T>(orm: MikroORM, work: () => Promise<T>, options: { oneWrite?: boolean } = {}): Promise<T> {
  const unitOfWork = new MikroOrmUnitOfWork(orm.em);
  return inContext(orm, () => (options.oneWrite ? unitOfWork.runOneWrite(work) : unitOfWork.run(work)));
}

/**
 * The one way a test runs SQL of its own on the service's database: a read that checks what the
 * code under test wrote, or a setup no verb of the API makes. `?` placeholders, values bound;
 * each call on a fork of its own, outside any unit of work.
 */
export function sqlIn<T = Record<string, unknown>>(orm: MikroORM, text: string, params: unknown[] = []): Promise<T[]> {
  return orm.em.fork().execute<T[]>(text, params);
}
