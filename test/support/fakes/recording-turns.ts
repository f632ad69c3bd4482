import { DeliveryJob } from '../../../src/application/webhook/delivery/delivery-job';
import { DeliveryClaim } from '../../../src/application/webhook/attempt/delivery-claim';
import { ClaimedTurn, DeliveryTurns, PageTurnOwner } from '../../../src/application/webhook/delivery/delivery-turns.port';

/**
 * Ordered deliveries' turns as a use case sees them: the turns passed on, and the job each gives
 * (`next`, once); a pass that claims gives `nextClaim` with it.
 */
export class RecordingTurns extends DeliveryTurns {
  readonly passed: PageTurnOwner[] = [];
  next: DeliveryJob | null = null;
  nextClaim: DeliveryClaim | null = null;
  stalled: DeliveryJob[] = [];

  async passOn(turn: PageTurnOwner): Promise<DeliveryJob | null> {
    this.passed.push(turn);
    const job = this.next;
    this.next = null;
    return job;
  }

  async passOnClaiming(turn: PageTurnOwner): Promise<ClaimedTurn | null> {
    const job = await this.passOn(turn);
    return job && { job, claim: this.nextClaim };
  }

  async passStalled(): Promise<DeliveryJob[]> {
    return this.stalled;
  }
}
