import { MikroORM } from '@mikro-orm/postgresql';
import { PlannedOutboxRelay } from '../../src/application/webhook/relay/planned-outbox-relay';
import { MikroOrmUnitOfWork } from '../../src/infrastructure/persistence/connection/mikro-orm-unit-of-work';
import { SqlRelayRoundStore } from '../../src/infrastructure/persistence/webhooks/sql-relay-round.store';

/** The relay's rounds as the worker runs them (planned by the domain, read and written in PostgreSQL), without its queue. */
export function outboxRelay(orm: MikroORM): PlannedOutboxRelay {
  return new PlannedOutboxRelay(new SqlRelayRoundStore(orm), new MikroOrmUnitOfWork(orm.em));
}
