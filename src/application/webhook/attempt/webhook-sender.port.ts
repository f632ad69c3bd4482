import { TraceCarrier } from '../delivery/delivery-job';
import { AttemptResult } from './delivery-claim';

export abstract class WebhookSender {
  /**
   * POSTs the body; never throws for the receiver's or the network's faults. `attempt` names the
   * attempt for its trace span, which continues `trace` and is sent to the receiver as `traceparent`.
   */
  abstract send(request: { url: string; body: string; headers: Record<string, string>; trace?: TraceCarrier | null; attempt?: AttemptLabel }): Promise<AttemptResult>;
}

/** What an attempt's span says about it. */
export interface AttemptLabel {
  deliveryId: string;
  eventId: string;
  eventType: string;
  subscriptionId: string;
  tenantId: string;
  number: number;
}
