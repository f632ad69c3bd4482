import { Injectable } from '@nestjs/common';
import { newTypeId } from '../../../domain/shared/type-id';
import { ORDERED_EVENT_TYPES } from '../../../domain/webhook/delivery-ordering';
import { earliestUnrelayed, pagesAsked, planRound, RoundPlan, takeTurns } from '../../../domain/webhook/relay-plan';
import { UnitOfWork } from '../../shared/unit-of-work.port';
import { DeliveryJob } from '../delivery/delivery-job';
import { FannedOut, OutboxRelay } from './outbox-relay';
import { RelayRoundStore } from './relay-round-store.port';

/**
 * Deliveries one relay round writes at most (the round's events are cut to fit, one event at
 * least): the relay's memory and transaction size depend on this, not on how many subscriptions
 * a tenant has.
 */
export const RELAY_ROUND_ROWS = 2000;

/**
 * A relay round in one transaction: the events claimed and the subscriptions read, the round
 * planned by the domain (relay-plan.ts: matching, the round's bound, order positions, first
 * attempts, page turns), then written and the events published. The store only reads and writes.
 */
@Injectable()
export class PlannedOutboxRelay extends OutboxRelay {
  constructor(
    private readonly store: RelayRoundStore,
    private readonly unitOfWork: UnitOfWork,
  ) {
    super();
  }

  fanOut(limit: number, now: Date, from: string | null = null): Promise<FannedOut> {
    return this.unitOfWork.run(async () => {
      const read = await this.store.claimEvents(limit, now, from);
      if (read.events.length === 0) return { events: 0, deliveries: [], more: false };
      let plan: RoundPlan = planRound(read.events, read.subscriptions, now, RELAY_ROUND_ROWS, () => newTypeId('whdlv', now.getTime()));
      const pages = pagesAsked(plan);
      if (pages.length > 0) {
        const { turns, unrelayed } = await this.store.pageTurns(pages, read.events, ORDERED_EVENT_TYPES);
        plan = takeTurns(plan, turns, earliestUnrelayed(unrelayed));
      }
      const deliveries = await this.store.writeRound(plan, read, now);
      return { events: plan.events.length, deliveries, more: read.events.length === limit || plan.events.length < read.events.length, through: plan.events.at(-1)?.id };
    });
  }

  takeRequested(limit: number, now: Date): Promise<DeliveryJob[]> {
    return this.store.takeRequested(limit, now);
  }
}
