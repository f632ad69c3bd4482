import { DeliveryJob } from './delivery-job';
import { DeliveryClaim } from '../attempt/delivery-claim';

/** One page's turn on one ordered subscription (decisions.md 145). */
export interface PageTurnOwner {
  tenantId: string;
  subscriptionId: string;
  /** The page. */
  orderKey: string;
}

/** A page's next delivery after a pass that claimed it: its job, and the claim (null when another took it first). */
export interface ClaimedTurn {
  job: DeliveryJob;
  claim: DeliveryClaim | null;
}

/**
 * The turns of ordered deliveries: of a page's deliveries to a subscription that orders, one goes
 * at a time, in version order; the later ones wait (docs/webhooks.md, Ordered delivery).
 */
export abstract class DeliveryTurns {
  /**
   * The delivery that had the page's turn has ended (delivered, given up or cancelled): the
   * page's next waiting one (lowest version) is made due now. Its job, or null when none waits or
   * one has the turn already. Safe to call twice: the turn passes once.
   */
  abstract passOn(turn: PageTurnOwner, now: Date): Promise<DeliveryJob | null>;

  /**
   * As passOn, and the page's next delivery is claimed for the caller at once, for `lockMs`, in
   * the same write: the attempt that ended starts it on its own slot, with no job and no claim of
   * its own between two versions of a page (decisions.md 174).
   */
  abstract passOnClaiming(turn: PageTurnOwner, now: Date, lockMs: number): Promise<ClaimedTurn | null>;

  /**
   * Turns nobody holds while deliveries wait for them (a worker stopped between recording the end
   * of one and passing the turn on, or the event before them went to no delivery): passed on now.
   * Each call looks at the next `limit` pages with deliveries waiting, going on from where the
   * last call stopped and starting over after the last page: its cost does not grow with the
   * chains' lengths or the number of pages, and every page is looked at in turn.
   */
  abstract passStalled(now: Date, limit: number): Promise<DeliveryJob[]>;
}
