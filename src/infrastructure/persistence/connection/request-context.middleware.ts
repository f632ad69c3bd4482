import { MikroORM, RequestContext } from '@mikro-orm/postgresql';

/** Each HTTP request works on its own EntityManager fork (identity map per request). */
export function requestContext(orm: MikroORM) {
  return (_req: unknown, _res: unknown, next: () => void): void => RequestContext.create(orm.em, next);
}
