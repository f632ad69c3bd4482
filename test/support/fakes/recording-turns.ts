import { DeliveryJob } from '../../../src/application/webhook/delivery/delivery-job';
import { DeliveryTurns, PageTurnOwner } from '../../../src/application/webhook/delivery/delivery-turns.port';

/** Ordered deliveries' turns as a use case sees them: the turns passed on, and the job each gives (`next`, once). */
export class RecordingTurns extends DeliveryTurns {
  readonly passed: PageTurnOwner[] = [];
  next: DeliveryJob | null = null;
  stalled: DeliveryJob[] = [];

  async passOn(turn: PageTurnOwner): Promise<DeliveryJob | null> {
    this.passed.push(turn);
    const job = this.next;
    this.next = null;
    return job;
  }

  async passStalled(): Promise<DeliveryJob[]> {
    return this.stalled;
  }
}
