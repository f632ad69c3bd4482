import type { ProgressListener } from '../../../application/seed/bulk-seeder.port';

/** Rows per `unnest` statement of the bulk seed. */
const BATCH = 5000;

/** Runs `insert` over [0, total) a batch at a time, telling the listener after each. */
export type SeedBatches = (stage: string, total: number, insert: (from: number, to: number) => Promise<void>) => Promise<void>;

export function seedBatches(onProgress: ProgressListener): SeedBatches {
  return async (stage, total, insert) => {
    onProgress(stage, 0, total);
    for (let from = 0; from < total; from += BATCH) {
      const to = Math.min(total, from + BATCH);
      await insert(from, to);
      onProgress(stage, to, total);
    }
  };
}

/** The i-th of `items`, round and round: how seeded rows are spread over their owners. */
export function pick<T>(items: readonly T[], i: number): T {
  return items[i % items.length];
}
