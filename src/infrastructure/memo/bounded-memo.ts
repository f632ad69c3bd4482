/**
 * A process-local memo of values that never change once written (a page group's default
 * template), bounded so that a caller walking many keys cannot grow the process: past `capacity`
 * entries the least recently used one goes. Only for facts that cannot go stale; anything that can
 * change belongs in the database's answer of the moment.
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

  get size(): number {
    return this.entries.size;
  }
}
