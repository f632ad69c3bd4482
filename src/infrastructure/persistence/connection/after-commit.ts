import { AsyncLocalStorage } from 'node:async_hooks';
import type { AggregateRoot } from '../../../domain/shared/aggregate-root';

/**
 * The scope of one unit of work: what it does once it has committed, asked for by the writes
 * inside it (the outbox writer asks for the relay's wake-up: outbox/relay-wake.ts), and the
 * aggregates its repositories handed out or wrote, whose events must all be written before it
 * commits (issue 43, item 1). The unit of work knows no writer and no repository: it runs whatever
 * was asked, once each, after its commit and never after a rollback, and checks the aggregates.
 */
interface Scope {
  actions: Map<string, () => void>;
  aggregates: Set<AggregateRoot>;
}
const scope = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` (the unit of work's transaction, or its one statement) and then the actions asked
 * for inside it, once it has committed. Nested inside another, it leaves them to the outermost
 * one, which commits last; `work` is told whether it is that one. Only the unit of work calls this.
 */
export async function committedThen<T>(work: (outermost: boolean) => Promise<T>): Promise<T> {
  if (scope.getStore()) return work(false);
  const state: Scope = { actions: new Map(), aggregates: new Set() };
  const result = await scope.run(state, () => work(true));
  for (const action of state.actions.values()) action();
  return result;
}

/**
 * Asks for `action` after the surrounding unit of work commits; one per `key` however often it is
 * asked. False, and nothing asked, outside a unit of work.
 */
export function afterCommit(key: string, action: () => void): boolean {
  const state = scope.getStore();
  if (!state) return false;
  if (!state.actions.has(key)) state.actions.set(key, action);
  return true;
}

/**
 * Notes an aggregate a repository handed out or wrote inside a unit of work: before it commits,
 * the unit of work checks that none holds an event no write took (eventsSavedOrThrow). Returns it.
 */
export function touched<T extends AggregateRoot | null>(aggregate: T): T {
  if (aggregate) scope.getStore()?.aggregates.add(aggregate);
  return aggregate;
}

/**
 * Throws, so that the unit of work rolls back instead of committing, when an aggregate it touched
 * still holds recorded events: a use case that changed an aggregate and never saved it, or a
 * repository whose write forgot its events. Either would lose them without a word.
 */
export function eventsSavedOrThrow(): void {
  const state = scope.getStore();
  if (!state) return;
  const unsaved = [...state.aggregates].flatMap((aggregate) => aggregate.peekEvents().map((event) => `${event.type} (${event.id})`));
  if (unsaved.length > 0) throw new Error(`the unit of work would commit with events no write took: ${unsaved.join(', ')}`);
}
