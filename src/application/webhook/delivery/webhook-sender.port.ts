import { AttemptResult } from './delivery-job';

export abstract class WebhookSender {
  /** POSTs the body; never throws for the receiver's or the network's faults. */
  abstract send(request: { url: string; body: string; headers: Record<string, string> }): Promise<AttemptResult>;
}
