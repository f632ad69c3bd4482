import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { decideAttempt } from '../../../domain/webhook/attempt-decision';
import { DIRECT_WINDOW_MS, unclaimedStartBound } from '../delivery/delivery-job';
import { WebhookSettings } from '../delivery/webhook-settings.port';
import { AttemptInput } from './attempt-input';
import { BreakersSeenOpen } from './breakers-seen-open';
import { DeliveryClaims } from './delivery-claims.port';
import { AttemptToSend } from './delivery-claim';
import { SubscriptionTargets } from './subscription-targets.port';

/**
 * First attempts the relay made ready (DirectFirstAttempt), sent without a claim: as the relay
 * decided within DIRECT_WINDOW_MS of its read; later, decided again on the subscription read
 * afresh (one read for the attempts asking at once). Anything else is claimed like every other
 * attempt (docs/webhooks.md, The attempt's path).
 */
@Injectable()
export class UnclaimedFirstAttempts {
  constructor(
    private readonly deliveries: DeliveryClaims,
    private readonly targets: SubscriptionTargets,
    private readonly seenOpen: BreakersSeenOpen,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
  ) {}

  /**
   * The attempt to send, or null when it is to be claimed instead: the decision is other than to
   * send now (the claim applies it), the target changed since, the job waited half a lease (the
   * sweeper may have made another job for it), or the last claim or record failed.
   */
  async ready(input: AttemptInput): Promise<AttemptToSend | null> {
    const { direct } = input;
    const now = this.clock.now();
    const age = direct ? now.getTime() - direct.readAt : Infinity;
    if (!direct || input.attempt !== 1 || age > unclaimedStartBound(this.settings.attemptLockMs)) return null;
    // While records fail (the database cut) a claim fails before sending; a breaker opened here since the read holds it.
    if (!this.deliveries.recording() || this.seenOpen.openedSince(direct.subscriptionId, direct.readAt)) return null;
    let { healthy, version } = direct;
    if (age > DIRECT_WINDOW_MS) {
      const fresh = await this.targets.now(direct.subscriptionId);
      if (!fresh) return null;
      const step = decideAttempt({ eventType: direct.eventType, manual: false, probe: false, subscription: fresh.subscription, pace: fresh.pace }, now);
      if (step.kind !== 'send') return null;
      ({ healthy, version } = fresh);
    }
    const target = await this.targets.target(direct.subscriptionId, version);
    if (!target) return null;
    return {
      deliveryId: input.deliveryId,
      attempt: 1,
      tenantId: input.tenantId,
      eventId: direct.eventId,
      eventType: direct.eventType,
      body: direct.body,
      trace: direct.trace,
      subscription: { id: direct.subscriptionId, ...target, healthy },
      manual: null,
      probe: false,
      orderKey: direct.orderKey ?? null,
      endpoint: input.endpoint,
    };
  }
}
