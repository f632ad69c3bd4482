/**
 * The one thing that opens a transaction on a request path (docs/architecture.md, The write
 * path): a use case that writes runs its checks and its writes inside one unit of work, and the
 * repositories take the connection it holds. After the commit it wakes the webhook relay if rows
 * for it were written. Nested calls join the outer unit of work.
 */
export abstract class UnitOfWork {
  /** Runs `work` in one transaction: every write inside commits together or not at all. */
  abstract run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * For work whose writes are one statement (a brand or a page with its events, decisions.md 84),
   * atomic by itself: it runs without BEGIN and COMMIT round trips, and everything else of `run`
   * holds. Its reads before the write are checks that the statement makes again (a page's group
   * is live) or facts that do not change (a template is visible). Inside `run`, it joins it.
   */
  abstract runOneWrite<T>(work: () => Promise<T>): Promise<T>;
}
