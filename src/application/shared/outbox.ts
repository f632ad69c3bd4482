import { DomainEvent } from '../../domain/shared/domain-event';

/**
 * Where a use case's events go: appended in the current unit of work, so that they commit with
 * the change that made them or not at all (decisions.md, transactional outbox).
 */
export abstract class Outbox {
  abstract append(events: readonly DomainEvent[]): Promise<void>;
}
