import { Outbox } from '../../../src/application/shared/outbox';
import { DomainEvent } from '../../../src/domain/shared/domain-event';

/** The events appended, in order. */
export class InMemoryOutbox extends Outbox {
  readonly events: DomainEvent[] = [];

  async append(events: readonly DomainEvent[]): Promise<void> {
    this.events.push(...events);
  }
}
