import { PageAsked, PageTurnRead, RoundEvent, RoundPlan, RoundSubscription } from '../../../domain/webhook/relay-plan';
import { DeliveryJob, TraceCarrier } from '../delivery/delivery-job';

/** An event a round claimed, with what its deliveries' first attempts and its publication carry. */
export interface ClaimedEvent extends RoundEvent {
  trace: TraceCarrier | null;
  /** When it was written, as the database gave it (handed back as it is when the round publishes it). */
  createdAt: string;
}

/** A live subscription of a claimed event's tenant, with what a first attempt sent unclaimed carries. */
export interface ReadSubscription extends RoundSubscription {
  url: string;
  /** Its target's version (SubscriptionTargets.target). */
  version: string;
  /** No failure since its last success, and not turned off. */
  healthy: boolean;
}

/** What a round read: its events in id order, and the live subscriptions of their tenants. */
export interface ClaimedRound {
  events: ClaimedEvent[];
  subscriptions: ReadSubscription[];
}

/**
 * The relay's reads and writes, each in the caller's unit of work (a round is one transaction):
 * it decides nothing; the round's plan is the domain's (relay-plan.ts, PlannedOutboxRelay).
 */
export abstract class RelayRoundStore {
  /**
   * Claims up to `limit` unpublished events, in id order from `from` (null: from the first), with
   * row locks held to the end of the unit of work, and reads the live subscriptions of their tenants.
   */
  abstract claimEvents(limit: number, now: Date, from: string | null): Promise<ClaimedRound>;
  /**
   * Takes the pages' turn locks (held to the end of the unit of work) and reads each page's turn,
   * and the events of `types` of the pages' tenants that other relays hold right now (ahead of
   * this round's `round` events).
   */
  abstract pageTurns(
    pages: readonly PageAsked[],
    round: readonly ClaimedEvent[],
    types: readonly string[],
  ): Promise<{ turns: PageTurnRead[]; unrelayed: { tenantId: string; type: string; body: string }[] }>;
  /**
   * Writes the planned deliveries and publishes the round's events (the plan's, which `read`
   * holds); the jobs of the deliveries made now, none for held or waiting ones.
   */
  abstract writeRound(plan: RoundPlan, read: ClaimedRound, now: Date): Promise<DeliveryJob[]>;
  /**
   * Up to `limit` manual deliveries (DeliveryRequests) not yet handed to the queue, marked handed
   * now: a lost hand-over is then the sweeper's, as for any delivery.
   */
  abstract takeRequested(limit: number, now: Date): Promise<DeliveryJob[]>;
}
