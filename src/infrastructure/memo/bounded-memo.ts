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
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
