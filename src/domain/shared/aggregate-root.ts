import { DomainEvent } from './domain-event';

/** Records events as the aggregate changes; the repository pulls them when it saves. */
export abstract class AggregateRoot {
  // Not a field initialiser: the ORM creates loaded aggregates without running the constructor.
  private pendingEvents?: DomainEvent[];

  protected record(event: DomainEvent): void {
    (this.pendingEvents ??= []).push(event);
  }

  /** The events recorded since the last pull, oldest first; empties the list. */
  pullEvents(): DomainEvent[] {
    const events = this.pendingEvents ?? [];
    this.pendingEvents = [];
    return events;
  }

  /** The recorded events without removing them (for tests and for saving twice safely). */
  peekEvents(): readonly DomainEvent[] {
    return this.pendingEvents ?? [];
  }
}
