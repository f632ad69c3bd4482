/** Deletes webhook history past its retention, in batches. */
export abstract class RetentionStore {
  /** Deletes up to `limit` deliveries finished before `before`, with their attempts; returns how many. */
  abstract purgeDeliveries(before: Date, limit: number): Promise<number>;
  /** Deletes up to `limit` events relayed before `before` that no delivery refers to; returns how many. */
  abstract purgeEvents(before: Date, limit: number): Promise<number>;
}
