import { DynamicModule, Module } from '@nestjs/common';
import { OutboxSignal } from '../../application/webhook/outbox-signal';
import { DeliveryQueue, DeliveryStore, OutboxRelayStore, Random, WebhookSender, WebhookSettings, WebhookSigner } from '../../application/webhook/delivery.ports';
import { RetentionSettings, RetentionStore } from '../../application/webhook/retention.ports';
import { WORKER_USE_CASES } from '../../application/webhook/worker-use-cases';
import { AppConfig, attemptSlots } from '../config/app-config';
import type { Logger } from '../../application/shared/logger';
import { PgOutboxSignal } from '../persistence/webhooks/pg-outbox.signal';
import { SqlDeliveryStore } from '../persistence/webhooks/sql-delivery.store';
import { SqlOutboxRelayStore } from '../persistence/webhooks/sql-outbox-relay.store';
import { SqlRetentionStore } from '../persistence/webhooks/sql-retention.store';
import { ConfigWebhookSettings, MathRandom } from './config-webhook.settings';
import { HmacWebhookSigner } from './hmac-webhook.signer';
import { HttpWebhookSender } from './http-webhook.sender';

/** The webhook worker's adapters and use cases, on top of the InfrastructureModule. */
@Module({})
export class WebhookWorkerModule {
  static forRoot(deps: { config: AppConfig; databaseUrl: string; queue: DeliveryQueue; logger: Logger }): DynamicModule {
    const { webhooks } = deps.config;
    const providers = [
      { provide: DeliveryQueue, useValue: deps.queue },
      { provide: DeliveryStore, useClass: SqlDeliveryStore },
      { provide: OutboxRelayStore, useClass: SqlOutboxRelayStore },
      { provide: RetentionStore, useClass: SqlRetentionStore },
      { provide: RetentionSettings, useValue: { retentionDays: webhooks.retentionDays } },
      { provide: WebhookSigner, useClass: HmacWebhookSigner },
      {
        provide: WebhookSender,
        useValue: new HttpWebhookSender({
          timeoutMs: webhooks.timeoutMs,
          allowPrivateTargets: webhooks.allowPrivateTargets,
          connections: attemptSlots(webhooks).total,
          dns: { servers: webhooks.dnsServers, timeoutMs: webhooks.dnsTimeoutMs, tries: 2 },
        }),
      },
      { provide: WebhookSettings, useValue: new ConfigWebhookSettings(webhooks.retrySchedule, webhooks.attemptLockMs) },
      { provide: Random, useClass: MathRandom },
      { provide: OutboxSignal, useValue: new PgOutboxSignal(deps.databaseUrl, deps.logger) },
      ...WORKER_USE_CASES,
    ];
    return { module: WebhookWorkerModule, providers, exports: [...WORKER_USE_CASES, OutboxSignal, WebhookSender] };
  }
}
