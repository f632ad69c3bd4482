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
  // Declared only, and made on the first event as a property that is not enumerable: restored
  // aggregates are made without the constructor, and a copy of an aggregate's state ({ ...it },
  // JSON) never carries its unsaved events along.
  private declare pendingEvents?: DomainEvent[];

  protected record(event: DomainEvent): void {
    if (!this.pendingEvents) Object.defineProperty(this, 'pendingEvents', { value: [], writable: true, enumerable: false });
    this.pendingEvents!.push(event);
  }

  /** Sets fields of this aggregate: the one way its methods write its readonly state. */
  protected change(changes: Partial<State>): void {
    Object.assign(this, changes);
  }

  /** The events recorded since the last pull, oldest first; empties the list. */
  pullEvents(): DomainEvent[] {
    const events = this.pendingEvents ?? [];
    if (this.pendingEvents) this.pendingEvents = [];
    return events;
  }

  /** The recorded events without removing them (for tests). */
  peekEvents(): readonly DomainEvent[] {
    return this.pendingEvents ?? [];
  }
}

/**
 * An aggregate as it was stored: `state` on an object of the class, without its constructor,
 * which is private to the factories that check the rules (a stored aggregate passed them when
 * it was made). For the class's own `restore`.
 */
export function restored<T extends object>(prototype: T, state: StateOf<T>): T {
  return Object.assign(Object.create(prototype) as T, state);
}
