import { EntityManager, RequestContext } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../../application/shared/unit-of-work.port';
import { committedThen } from './after-commit';

@Injectable()
export class MikroOrmUnitOfWork extends UnitOfWork {
  constructor(private readonly em: EntityManager) {
    super();
  }

  /**
   * Repositories use the context EntityManager, which inside here is the transaction's fork.
   * What the writes inside asked for after the commit (the relay's wake-up) runs once this, the
   * outermost transaction, has committed (connection/after-commit.ts).
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.inContext(() => committedThen(() => this.em.transactional(() => work())));
  }

  runOneWrite<T>(work: () => Promise<T>): Promise<T> {
    return this.inContext(() => committedThen(work));
  }

  /** A request or a CLI command has its context already; the worker's use cases get one here. */
  private inContext<T>(work: () => Promise<T>): Promise<T> {
    return RequestContext.currentRequestContext() ? work() : RequestContext.create(this.em, work);
  }
}
