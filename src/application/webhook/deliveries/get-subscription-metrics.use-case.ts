import { Injectable } from '@nestjs/common';
import { Clock } from '../../../domain/shared/clock.port';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { subscriptionOrFail } from '../subscriptions/subscription-or-fail';
import { WebhookDeliveryQueries } from './webhook-delivery-queries.port';
import { metricsWindow, MetricsWindow, SubscriptionMetricsView, toMetricsView } from './subscription-metrics.view';

/** A subscription's attempts, success rate and latency by hour over 24 hours or 7 days. */
@Injectable()
export class GetSubscriptionMetrics {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly queries: WebhookDeliveryQueries,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; subscriptionId: string; window: MetricsWindow }): Promise<SubscriptionMetricsView> {
    await subscriptionOrFail(this.subscriptions, input.tenantId, input.subscriptionId);
    const span = metricsWindow(input.window, this.clock.now());
    const rows = await this.queries.attemptCounts(input.tenantId, input.subscriptionId, span.from, span.to);
    return toMetricsView(input.subscriptionId, input.window, span, rows);
  }
}
