import { UnitOfWork } from '../../../src/application/shared/unit-of-work.port';

/** Runs the work as it is: the in-memory fakes have nothing to commit or roll back. */
export class ImmediateUnitOfWork extends UnitOfWork {
  /** Units of work begun (`run` and `runOneWrite` alike), for tests that a use case opens one. */
  runs = 0;

  run<T>(work: () => Promise<T>): Promise<T> {
    this.runs++;
    return work();
  }

  runOneWrite<T>(work: () => Promise<T>): Promise<T> {
    return this.run(work);
  }
}
