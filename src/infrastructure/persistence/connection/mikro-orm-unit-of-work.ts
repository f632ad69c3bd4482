import { EntityManager, RequestContext } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../../application/shared/unit-of-work.port';
import { committedThen, eventsSavedOrThrow } from './after-commit';

@Injectable()
export class MikroOrmUnitOfWork extends UnitOfWork {
  constructor(private readonly em: EntityManager) {
    super();
  }

  /**
   * Repositories use the context EntityManager, which inside here is the transaction's fork.
   * What the writes inside asked for after the commit (the relay's wake-up) runs once this, the
   * outermost transaction, has committed (connection/after-commit.ts). Before it commits, it
   * refuses to if an aggregate its repositories touched still holds an event: it rolls back.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.inContext(() =>
      committedThen((outermost) =>
        this.em.transactional(async () => {
          const result = await work();
          if (outermost) eventsSavedOrThrow();
          return result;
        }),
      ),
    );
  }

  /** One statement, atomic by itself: an event left unsaved after it is reported as loudly, though the statement stands. */
  runOneWrite<T>(work: () => Promise<T>): Promise<T> {
    return this.inContext(() =>
      committedThen(async (outermost) => {
        const result = await work();
        if (outermost) eventsSavedOrThrow();
        return result;
      }),
    );
  }

  /** A request or a CLI command has its context already; the worker's use cases get one here. */
  private inContext<T>(work: () => Promise<T>): Promise<T> {
    return RequestContext.currentRequestContext() ? work() : RequestContext.create(this.em, work);
  }
}
