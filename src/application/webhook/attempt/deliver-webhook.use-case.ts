import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { secretsStillValid } from '../../../domain/webhook/signing-secrets';
import { AttemptFinish } from './attempt-finish';
import { AttemptInput } from './attempt-input';
import { AttemptStart, reportIds } from './attempt-start';
import { DeliveryAttemptReport } from './delivery-attempt-report';
import { AttemptToSend } from './delivery-claim';
import { UnclaimedFirstAttempts } from './unclaimed-first-attempts';
import { WebhookSender } from './webhook-sender.port';
import { WebhookSigner } from './webhook-signer.port';

/**
 * One attempt of one delivery: a first attempt the relay made ready is sent as it is
 * (UnclaimedFirstAttempts); any other is claimed and takes the one step the domain decides
 * (AttemptStart). Sent, the fixed body is signed and posted, and what follows is decided once
 * and applied (AttemptFinish). PostgreSQL holds the truth; the queue only wakes workers
 * (docs/webhooks.md, The attempt's path).
 */
@Injectable()
export class DeliverWebhook {
  constructor(
    private readonly unclaimed: UnclaimedFirstAttempts,
    private readonly start: AttemptStart,
    private readonly finish: AttemptFinish,
    private readonly sender: WebhookSender,
    private readonly signer: WebhookSigner,
    private readonly clock: Clock,
  ) {}

  async execute(input: AttemptInput): Promise<DeliveryAttemptReport> {
    const ready = await this.unclaimed.ready(input);
    if (ready) return { ...reportIds(ready), ...(await this.send(ready, false, input)) };
    const started = await this.start.begin(input);
    if (!('claim' in started)) return started;
    return { ...reportIds(started.claim), ...(await this.send(started.claim, started.probe, input)) };
  }

  /** Signs and sends the attempt, then concludes it; the endpoint's slot is given back as soon as the request is over. */
  private async send(attempt: AttemptToSend, probe: boolean, { requestEnded, followOn }: Pick<AttemptInput, 'requestEnded' | 'followOn'>): Promise<Omit<DeliveryAttemptReport, 'deliveryId' | 'attempt'>> {
    const sentAt = this.clock.now();
    const { subscription } = attempt;
    const headers = this.signer.headers({
      eventId: attempt.eventId,
      eventType: attempt.eventType,
      body: attempt.body,
      signingSecret: subscription.signingSecret,
      previousSecrets: secretsStillValid(subscription.previousSecrets, sentAt),
      sentAt,
    });
    const result = await this.sender.send({
      url: subscription.url,
      body: attempt.body,
      headers,
      trace: attempt.trace,
      attempt: { deliveryId: attempt.deliveryId, eventId: attempt.eventId, eventType: attempt.eventType, subscriptionId: subscription.id, tenantId: attempt.tenantId, number: attempt.attempt },
    });
    requestEnded?.();
    return this.finish.finish(attempt, { ...result, sentAt }, probe, followOn);
  }
}
