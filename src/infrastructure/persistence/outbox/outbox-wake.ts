import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../sql-statement';

export const OUTBOX_CHANNEL = 'outbox_events';

/**
 * The relay's wake-up (NOTIFY) is sent after the transaction that wrote outbox rows commits, not
 * inside it. A transaction that has issued NOTIFY takes one lock for the whole database at its
 * commit and keeps it until its commit record is on disk, so every event-writing commit of every
 * process waited for the previous one's flush, one flush at a time (pg_stat_activity showed POST
 * pages queued behind each other's WAL flushes). Sent afterwards, from no transaction, the
 * NOTIFY writes nothing to the WAL and holds that lock for microseconds.
 *
 * Lost wake-ups cost latency only: the relay also polls (WEBHOOK_RELAY_POLL_MS), and a process
 * that dies between the commit and the NOTIFY leaves its events for that poll.
 */
interface Scope {
  wroteOutbox: boolean;
}
const scope = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` (which begins and commits a transaction on `em`) and wakes the relay once it has
 * committed, if it wrote outbox rows. Nested inside another such scope (a repository's
 * transaction inside a unit of work), it leaves that to the outermost one, which commits last.
 */
export async function committingOutbox<T>(em: EntityManager, work: () => Promise<T>): Promise<T> {
  if (scope.getStore()) return work();
  const state: Scope = { wroteOutbox: false };
  const result = await scope.run(state, work);
  if (state.wroteOutbox) wakeRelay(em);
  return result;
}

/** Called by the outbox writer: true when a scope will wake the relay after its commit. */
export function markOutboxWritten(): boolean {
  const state = scope.getStore();
  if (state) state.wroteOutbox = true;
  return state !== undefined;
}

/**
 * Wakes the relay for work written in the current transaction: after the enclosing
 * `committingOutbox` commits, or, outside one, by a NOTIFY in the transaction (delivered on
 * commit, dropped on rollback). The relay also polls, so a missed wake-up only adds latency.
 */
export async function wakeRelayOnCommit(em: EntityManager): Promise<void> {
  if (!markOutboxWritten()) await sqlRows(em, `SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
}

// Commits that finish in the same turn of the event loop share one NOTIFY: it is sent after all of
// them, so the relay's next read sees every one. A commit after it has been sent gets a new one.
let scheduled = false;
function wakeRelay(em: EntityManager): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    void sqlRows(em, `SELECT pg_notify('${OUTBOX_CHANNEL}', '')`).catch(() => {
      // Best effort by design (the relay polls); a failing database shows in the request itself.
    });
  });
}
