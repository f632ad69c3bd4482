import { DynamicModule, Module } from '@nestjs/common';
import { OutboxSignal } from '../../application/webhook/relay/outbox-signal.port';
import { DeliveryQueue } from '../../application/webhook/delivery/delivery-queue.port';
import { DeliveryClaims } from '../../application/webhook/attempt/delivery-claims.port';
import { StrandedDeliveries } from '../../application/webhook/sweeper/stranded-deliveries.port';
import { DeliveryTurns } from '../../application/webhook/delivery/delivery-turns.port';
import { PutOffAttempts } from '../../application/webhook/attempt/put-off-attempts.port';
import { SubscriptionTargets } from '../../application/webhook/attempt/subscription-targets.port';
import { HeldDeliveries } from '../../application/webhook/held/held-deliveries.port';
import { RelayRoundStore } from '../../application/webhook/relay/relay-round-store.port';
import { Random } from '../../application/webhook/delivery/random.port';
import { WebhookSender } from '../../application/webhook/attempt/webhook-sender.port';
import { WebhookSettings } from '../../application/webhook/delivery/webhook-settings.port';
import { RetentionSettings } from '../../application/webhook/history/retention-settings.port';
import { WORKER_USE_CASES } from './worker-use-cases';
import { AppConfig } from '../../infrastructure/config/app-config';
import { attemptSlots } from '../../infrastructure/config/webhook-config';
import type { Logger } from '../../application/shared/logger.port';
import { PgOutboxSignal } from '../../infrastructure/persistence/outbox/pg-outbox.signal';
import { RecordSession } from '../../infrastructure/persistence/connection/record-session';
import { SqlDeliveryClaims } from '../../infrastructure/persistence/webhooks/sql-delivery-claims.store';
import { SqlSubscriptionTargets } from '../../infrastructure/persistence/webhooks/sql-subscription-targets.store';
import { DecryptedSecrets } from '../../infrastructure/crypto/decrypted-secrets';
import { SqlStrandedDeliveries } from '../../infrastructure/persistence/webhooks/sql-stranded-deliveries.store';
import { SqlDeliveryTurns } from '../../infrastructure/persistence/webhooks/sql-delivery-turns.store';
import { SqlPutOffAttempts } from '../../infrastructure/persistence/webhooks/sql-put-off-attempts.store';
import { SqlHeldDeliveries } from '../../infrastructure/persistence/webhooks/sql-held-deliveries.store';
import { SqlRelayRoundStore } from '../../infrastructure/persistence/webhooks/sql-relay-round.store';
import { ConfigWebhookSettings, MathRandom } from '../../infrastructure/webhooks/config-webhook.settings';
import { HttpWebhookSender } from '../../infrastructure/webhooks/http-webhook.sender';

/** The webhook worker's adapters and use cases, on top of the InfrastructureModule. */
@Module({})
export class WebhookWorkerModule {
  static forRoot(deps: { config: AppConfig; databaseUrl: string; queue: DeliveryQueue; logger: Logger; records: RecordSession }): DynamicModule {
    const { webhooks } = deps.config;
    const providers = [
      { provide: DeliveryQueue, useValue: deps.queue },
      { provide: RecordSession, useValue: deps.records },
      { provide: DeliveryClaims, useClass: SqlDeliveryClaims },
      { provide: SubscriptionTargets, useClass: SqlSubscriptionTargets },
      DecryptedSecrets,
      { provide: PutOffAttempts, useClass: SqlPutOffAttempts },
      { provide: StrandedDeliveries, useClass: SqlStrandedDeliveries },
      { provide: DeliveryTurns, useClass: SqlDeliveryTurns },
      { provide: HeldDeliveries, useClass: SqlHeldDeliveries },
      { provide: RelayRoundStore, useClass: SqlRelayRoundStore },
      { provide: RetentionSettings, useValue: { retentionDays: webhooks.retentionDays, sessionRetentionDays: webhooks.sessionRetentionDays } },
      {
        provide: WebhookSender,
        useValue: new HttpWebhookSender({
          timeoutMs: webhooks.timeoutMs,
          allowPrivateTargets: webhooks.allowPrivateTargets,
          connections: attemptSlots(webhooks).total,
          dns: { servers: webhooks.dnsServers, timeoutMs: webhooks.dnsTimeoutMs, tries: 2 },
        }),
      },
      { provide: WebhookSettings, useValue: new ConfigWebhookSettings(webhooks.retrySchedule, webhooks.attemptLockMs, webhooks.health) },
      { provide: Random, useClass: MathRandom },
      { provide: OutboxSignal, useValue: new PgOutboxSignal(deps.databaseUrl, deps.logger) },
      ...WORKER_USE_CASES,
    ];
    return { module: WebhookWorkerModule, providers, exports: [...WORKER_USE_CASES, OutboxSignal, WebhookSender] };
  }
}
