import { UnitOfWork } from '../../../src/application/shared/unit-of-work';

/** Runs the work as it is: the in-memory fakes have nothing to commit or roll back. */
export class ImmediateUnitOfWork extends UnitOfWork {
  runs = 0;

  run<T>(work: () => Promise<T>): Promise<T> {
    this.runs++;
    return work();
  }
}
