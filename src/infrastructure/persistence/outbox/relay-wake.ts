import { EntityManager } from '@mikro-orm/postgresql';
import { afterCommit } from '../connection/after-commit';
import { PgNotifier } from '../connection/pg-notifier';
import { lowestFrom } from '../../../application/webhook/relay/outbox-signal.port';

export const OUTBOX_CHANNEL = 'outbox_events';

// The relay's wake-up (NOTIFY) is sent by the unit of work after its transaction commits, never
// inside it. A transaction that has issued NOTIFY takes one lock for the whole database at its
// commit and keeps it until its commit record is on disk, so every event-writing commit of every
// process waited for the previous one's flush, one flush at a time (pg_stat_activity showed POST
// pages queued behind each other's WAL flushes). Sent afterwards, from no transaction, the
// NOTIFY writes nothing to the WAL and holds that lock for microseconds.
//
// Lost wake-ups cost latency only: the relay also polls (WEBHOOK_RELAY_POLL_MS), and a process
// that dies between the commit and the NOTIFY leaves its work for that poll.

/**
 * Called by the writer of rows for the relay (outbox.writer.ts) before it writes them: the relay
 * is woken after the surrounding unit of work commits (connection/after-commit.ts). `from` is the
 * lowest id of the unpublished events the write adds, when it adds some: the wake-up carries the
 * lowest of its commits' ids, and the relay reads the outbox from there (relay.loop.ts). Without
 * it the wake-up says "somewhere", and the relay reads the whole outbox. Outside a unit of work it
 * throws: such rows would wait for the relay's poll, and a use case that forgot its unit of work
 * would be found only by its latency.
 */
export function noteRelayWork(em: EntityManager, from: string | null): void {
  if (!afterCommit('wake the relay', () => wakeRelay(em))) throw new Error('rows for the relay were written outside a unit of work (UnitOfWork.run)');
  // One action per id (a unit of work writes a few): each lowers the floor before the wake-up is sent.
  afterCommit(`relay from ${from ?? ''}`, () => (floor = lowestFrom(from, floor)));
}

// Commits share NOTIFYs: one is sent at the next turn of the event loop after a commit, and
// while it is in flight, the commits that finish meanwhile share the one sent after it. So every
// commit is followed by a NOTIFY sent after it, and at most one is on its way at a time (under
// load one per round trip, not one per turn: each was a round trip of the API's). Its payload is
// the lowest event id of the commits it tells of ('' when one of them did not say).
let due = false;
let inFlight = false;
let floor: string | null | undefined;
const EVENT_ID = /^evt_[0-9a-z]{26}$/;
const sending = new Set<Promise<void>>();

function wakeRelay(em: EntityManager): void {
  due = true;
  if (inFlight) return;
  inFlight = true;
  const sent = new Promise<void>((resolve) => setImmediate(() => void sendWhileDue(em).finally(resolve)));
  sending.add(sent);
  void sent.finally(() => sending.delete(sent));
}

async function sendWhileDue(em: EntityManager): Promise<void> {
  try {
    while (due) {
      due = false;
      // The id in the text, not a parameter: a statement with none goes in the simple protocol
      // (one message, no parse-bind-execute), as it did before the wake-up named an id. Only an
      // id of TypeID characters is ever written there.
      const from = floor && EVENT_ID.test(floor) ? floor : '';
      floor = undefined;
      await notify(em, `SELECT pg_notify('${OUTBOX_CHANNEL}', '${from}')`).catch(() => {
        // Best effort by design (the relay polls); a failing database shows in the request itself.
      });
    }
  } finally {
    inFlight = false;
  }
}

/**
 * Wake-ups go over a connection of their own per database (PgNotifier says why), not the pool's;
 * every ORM here is made by createOrmConfig, which names the database's URL.
 */
const notifiers = new Map<string, PgNotifier>();
function notify(em: EntityManager, text: string): Promise<void> {
  const url = em.config.get('clientUrl')!;
  let notifier = notifiers.get(url);
  if (!notifier) notifiers.set(url, (notifier = new PgNotifier(url)));
  return notifier.notify(text);
}

/**
 * Resolves once every wake-up scheduled so far has been sent (or has failed), and ends the
 * wake-ups' connections (a later wake-up opens its own again). Whoever closes the database
 * awaits it first: a wake-up left for after the close would open a connection again (the CLI
 * closed right after its command, and its process lingered on that connection).
 */
export async function relayWakesSent(): Promise<void> {
  while (sending.size > 0) await Promise.allSettled([...sending]);
  await Promise.all([...notifiers.values()].map((notifier) => notifier.close()));
}
