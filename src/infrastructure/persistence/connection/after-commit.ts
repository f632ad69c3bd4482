import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a unit of work does once it has committed, asked for by the writes inside it (the outbox
 * writer asks for the relay's wake-up: outbox/relay-wake.ts). The unit of work knows no writer:
 * it runs whatever was asked, once each, after its commit and never after a rollback.
 */
interface Scope {
  actions: Map<string, () => void>;
}
const scope = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` (the unit of work's transaction, or its one statement) and then the actions asked
 * for inside it, once it has committed. Nested inside another, it leaves them to the outermost
 * one, which commits last. Only the unit of work calls this.
 */
export async function committedThen<T>(work: () => Promise<T>): Promise<T> {
  if (scope.getStore()) return work();
  const state: Scope = { actions: new Map() };
  const result = await scope.run(state, work);
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
