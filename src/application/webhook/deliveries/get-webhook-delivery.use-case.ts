import { Injectable } from '@nestjs/common';
import { foundOrFail } from '../../shared/found-or-fail';
import { attemptErrorKind } from '../../../domain/webhook/attempt-error';
import { SIGNATURE_HEADERS, WebhookSigner } from '../attempt/webhook-signer.port';
import { StoredDeliveryAttempt, WebhookDeliveryQueries } from './webhook-delivery-queries.port';
import { DeliveryAttemptDetailView, WebhookDeliveryDetailView, WebhookDeliveryView } from './webhook-delivery.view';

/**
 * One delivery with its attempts: what each sent (its headers but the signatures, made again from
 * what the log keeps: the secret is never read here), what came back and why it failed.
 */
@Injectable()
export class GetWebhookDelivery {
  constructor(
    private readonly queries: WebhookDeliveryQueries,
    private readonly signer: WebhookSigner,
  ) {}

  /** `only`: the subscriptions a portal session is narrowed to; a delivery of another is not found. */
  async execute(input: { tenantId: string; deliveryId: string; only?: readonly string[] | null }): Promise<WebhookDeliveryDetailView> {
    const found = await foundOrFail('webhook delivery', 'whdlv', input.deliveryId, async (id) => {
      const one = await this.queries.one(input.tenantId, id);
      return one && (!input.only || input.only.includes(one.delivery.subscriptionId)) && one;
    });
    return { ...found.delivery, attempts: found.attempts.map((attempt) => this.detailOf(found.delivery, attempt)) };
  }

  private detailOf(delivery: WebhookDeliveryView, a: StoredDeliveryAttempt): DeliveryAttemptDetailView {
    const request = a.sentAt && { headers: this.signer.shownHeaders({ eventId: delivery.eventId, eventType: delivery.eventType, sentAt: a.sentAt }), omittedHeaders: [...SIGNATURE_HEADERS] };
    return {
      id: a.id,
      attemptNumber: a.attemptNumber,
      sentAt: a.sentAt?.toISOString() ?? null,
      createdAt: a.createdAt.toISOString(),
      durationMs: a.durationMs,
      request: request || null,
      statusCode: a.statusCode,
      errorKind: attemptErrorKind(a.statusCode, a.error),
      error: a.error,
      responseExcerpt: a.responseExcerpt,
      nextAttemptAt: a.nextAttemptAt?.toISOString() ?? null,
    };
  }
}
