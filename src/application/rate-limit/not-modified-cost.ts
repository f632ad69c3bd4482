/** Budget windows whose 304s this process is counting, at most: past it, all are forgotten at once. */
const WINDOWS_AT_MOST = 10_000;

/**
 * A 304 costs half a request (decisions.md 176): every second 304 of a key's budget window is
 * taken back off the budget, the first of each pair stays counted. Never free: a client that
 * polls with If-None-Match (or `*`, which any existing resource matches) still meets its limit,
 * at twice the reads of one that does not. Counted per API process: with several, each halves
 * its own 304s, so a key pays at least half of each. The memory is bounded by the windows seen.
 */
export class NotModifiedCost {
  private readonly unpaired = new Set<string>();

  /** Whether this 304 (of `budget`'s window starting at `windowStart`) is the one of its pair given back. */
  refunds(budget: string, windowStart: number): boolean {
    const window = `${budget} ${windowStart}`;
    if (this.unpaired.delete(window)) return true;
    if (this.unpaired.size >= WINDOWS_AT_MOST) this.unpaired.clear();
    this.unpaired.add(window);
    return false;
  }
}
