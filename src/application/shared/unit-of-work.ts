/**
 * Runs several use-case steps as one transaction: every repository write inside `run` commits
 * together or not at all. A single use case needs none (each save is its own transaction).
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
