import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Outbox } from '../../../application/shared/outbox';
import { DomainEvent } from '../../../domain/shared/domain-event';
import { writeToOutbox } from './outbox.writer';

/** The outbox port on the context EntityManager: inside the unit of work's transaction. */
@Injectable()
export class SqlOutbox extends Outbox {
  constructor(private readonly em: EntityManager) {
    super();
  }

  append(events: readonly DomainEvent[]): Promise<void> {
    return writeToOutbox(this.em, events);
  }
}
