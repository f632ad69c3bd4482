/**
 * A process-local memo, bounded so that a caller walking many keys cannot grow the process:
 * past `capacity` entries the least recently used one goes. For facts that cannot go stale (a
 * page group's default template), or for copies whose use checks them against the database (a
 * brand with its row version, which the write compares).
 */
export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: moving a hit to the end makes the first entry the least recent.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.evict();
  }

  /**
   * Drops the least recent tenth in one walk. One entry at a time, each `set` of a full memo
   * started a new walk from the front, past the holes its deletions leave in a Map until it
   * rehashes: it showed in the API's profile of POST /v0/brands (5 µs a request).
   */
  private evict(): void {
    const keep = Math.ceil(this.capacity * 0.9);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= keep) break;
      this.entries.delete(key);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
