import { DomainEvent } from './domain-event';

/** The fields of an aggregate (its methods excluded): `class Brand extends AggregateRoot<StateOf<Brand>>`. */
export type StateOf<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: T[K] };

/**
 * The base of every aggregate. Its state is `readonly` to everyone else, so it changes only through
 * the aggregate's own methods, named after the domain's verbs, which call `change`. It records
 * the events its changes cause; the repository that saves it writes them in the same
 * transaction as its row (docs/architecture.md, The write path).
 */
export abstract class AggregateRoot<State = object> {
  // Not a field initialiser: loaded aggregates are made without running the constructor.
  private pendingEvents?: DomainEvent[];

  protected record(event: DomainEvent): void {
    (this.pendingEvents ??= []).push(event);
  }

  /** Sets fields of this aggregate: the one way its methods write its readonly state. */
  protected change(changes: Partial<State>): void {
    Object.assign(this, changes);
  }

  /** The events recorded since the last pull, oldest first; empties the list. */
  pullEvents(): DomainEvent[] {
    const events = this.pendingEvents ?? [];
    this.pendingEvents = [];
    return events;
  }

  /** The recorded events without removing them (for tests). */
  peekEvents(): readonly DomainEvent[] {
    return this.pendingEvents ?? [];
  }
}
