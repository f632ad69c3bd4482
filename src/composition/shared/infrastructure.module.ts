import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { BrandQueries } from '../../application/brand/brand-queries.port';
import { PageGroupQueries } from '../../application/page-group/page-group-queries.port';
import { PageQueries } from '../../application/page/page-queries.port';
import { TemplateQueries } from '../../application/template/template-queries.port';
import { BulkSeeder } from '../../application/seed/bulk-seeder.port';
import { IdempotencyStore } from '../../application/idempotency/idempotency-store.port';
import { RateLimiter } from '../../application/rate-limit/rate-limiter.port';
import { ApiKeyCache } from '../../application/api-key/api-key-cache.port';
import { RateLimitSettings } from '../../application/rate-limit/rate-limit-settings.port';
import { UnitOfWork } from '../../application/shared/unit-of-work.port';
import { EventQueries } from '../../application/event/event-queries.port';
import { Metrics } from '../../application/shared/metrics.port';
import { UnservedMetrics } from '../../infrastructure/metrics/unserved-metrics';
import { PageSessionRepository } from '../../domain/page/page-session-repository.port';
import { PageRepository } from '../../domain/page/page-repository.port';
import { PageVersionRepository } from '../../domain/page/page-version-repository.port';
import { PageGroupRepository } from '../../domain/page-group/page-group-repository.port';
import { TemplateRepository } from '../../domain/template/template-repository.port';
import { WebhookLimits } from '../../application/webhook/subscriptions/webhook-limits.port';
import { TargetPolicy } from '../../application/webhook/subscriptions/target-policy.port';
import { EventFeedWaits } from '../../application/event/event-feed-waits.port';
import { PgEventFeedWaits } from '../../infrastructure/persistence/outbox/pg-event-feed.waits';
import { FilterTargets } from '../../application/webhook/subscriptions/filter-targets.port';
import { SqlFilterTargets } from '../../infrastructure/persistence/queries/sql-filter-targets';
import { WebhookSubscriptionQueries } from '../../application/webhook/subscriptions/webhook-subscription-queries.port';
import { SigningSecretGenerator } from '../../domain/webhook/signing-secret-generator.port';
import { WebhookSubscriptionRepository } from '../../domain/webhook/webhook-subscription-repository.port';
import { resolveEncryptionKey } from '../../infrastructure/crypto/encryption-key';
import { RandomSigningSecretGenerator } from '../../infrastructure/crypto/random-signing-secret.generator';
import { SecretCipher } from '../../infrastructure/crypto/secret-cipher';
import { SqlWebhookSubscriptionQueries } from '../../infrastructure/persistence/queries/sql-webhook-subscription.queries';
import { SqlWebhookDeliveryQueries } from '../../infrastructure/persistence/queries/sql-webhook-delivery.queries';
import { WebhookDeliveryQueries } from '../../application/webhook/deliveries/webhook-delivery-queries.port';
import { WebhookSigner } from '../../application/webhook/attempt/webhook-signer.port';
import { HmacWebhookSigner } from '../../infrastructure/webhooks/hmac-webhook.signer';
import { SqlWebhookSubscriptionRepository } from '../../infrastructure/persistence/repositories/sql-webhook-subscription.repository';
import { AddressTargetPolicy } from '../../infrastructure/webhooks/address-target.policy';
import { ReadinessProbe } from '../../application/health/readiness-probe.port';
import { HistoryDays } from '../../application/webhook/history/history-days.port';
import { SqlHistoryDays } from '../../infrastructure/persistence/history/sql-history-days';
import { ApiKeySecrets } from '../../domain/api-key/api-key-secrets.port';
import { PortalSecrets } from '../../domain/portal/portal-secrets.port';
import { PortalSessionRepository } from '../../domain/portal/portal-session-repository.port';
import { Sha256PortalSecrets } from '../../infrastructure/crypto/sha256-portal-secrets';
import { SqlPortalSessionRepository } from '../../infrastructure/persistence/repositories/sql-portal-session.repository';
import { ApiKeyRepository } from '../../domain/api-key/api-key-repository.port';
import { BrandRepository } from '../../domain/brand/brand-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { TenantRepository } from '../../domain/tenant/tenant-repository.port';
import { AppConfig } from '../../infrastructure/config/app-config';
import { Sha256ApiKeySecrets } from '../../infrastructure/crypto/sha256-api-key-secrets';
import { DatabaseReadinessProbe } from '../../infrastructure/persistence/connection/database-readiness.probe';
import { MikroOrmUnitOfWork } from '../../infrastructure/persistence/connection/mikro-orm-unit-of-work';
import { SqlDeliveryRequests } from '../../infrastructure/persistence/webhooks/sql-delivery-requests.store';
import { DeliveryRequests } from '../../application/webhook/subscriptions/delivery-requests.port';
import { SqlEventQueries } from '../../infrastructure/persistence/queries/sql-event.queries';
import { SqlBulkSeeder } from '../../infrastructure/persistence/seeding/sql-bulk-seeder';
import { SqlIdempotencyStore } from '../../infrastructure/persistence/repositories/sql-idempotency.store';
import { MemoryRateLimiter } from '../../infrastructure/rate-limit/memory-rate-limiter';
import { NoApiKeyCache } from '../../infrastructure/api-keys/no-api-key.cache';
import { SqlBrandQueries } from '../../infrastructure/persistence/queries/sql-brand.queries';
import { SqlPageGroupQueries } from '../../infrastructure/persistence/queries/sql-page-group.queries';
import { SqlPageQueries } from '../../infrastructure/persistence/queries/sql-page.queries';
import { SqlTemplateQueries } from '../../infrastructure/persistence/queries/sql-template.queries';
import { SqlPageGroupRepository } from '../../infrastructure/persistence/repositories/sql-page-group.repository';
import { SqlPageRepository, SqlPageVersionRepository } from '../../infrastructure/persistence/repositories/sql-page.repository';
import { SqlTemplateRepository } from '../../infrastructure/persistence/repositories/sql-template.repository';
import { SqlPageSessionRepository } from '../../infrastructure/persistence/repositories/sql-page-session.repository';
import { SqlApiKeyRepository } from '../../infrastructure/persistence/repositories/sql-api-key.repository';
import { SqlBrandRepository } from '../../infrastructure/persistence/repositories/sql-brand.repository';
import { SqlTenantRepository } from '../../infrastructure/persistence/repositories/sql-tenant.repository';
import { DatabaseClock } from '../../infrastructure/time/database-clock';
import { databaseNowMs } from '../../infrastructure/persistence/connection/database-time';
import { LOGGER, type Logger } from '../../application/shared/logger.port';

export interface InfrastructureDeps {
  config: AppConfig;
  orm: MikroORM;
  logger: Logger;
  /** Shared (Redis) when the process has one; else counted in this process. */
  rateLimiter?: RateLimiter;
  /** Keys already seen, beside their budgets (Redis); none when not given (every key from PostgreSQL). */
  apiKeyCache?: ApiKeyCache;
  /** One per process; a fresh one (without Node's default metrics) when not given. */
  metrics?: Metrics;
}

/**
 * Binds every port to its adapter. The ORM is made (and migrated) by the composition root before
 * Nest starts, so a bad database stops the process before it listens.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(deps: InfrastructureDeps): DynamicModule {
    const providers = [
      { provide: LOGGER, useValue: deps.logger },
      { provide: MikroORM, useValue: deps.orm },
      // The global EntityManager resolves to the request's fork (RequestContext middleware, or a
      // fork made by the CLI), and refuses to work outside one.
      { provide: EntityManager, useValue: deps.orm.em },
      // The database's clock, so that processes on different hosts compare times on one clock.
      {
        provide: Clock,
        useFactory: async () => {
          const clock = new DatabaseClock(() => databaseNowMs(deps.orm.em.fork()));
          await clock.start();
          return clock;
        },
      },
      { provide: ApiKeySecrets, useClass: Sha256ApiKeySecrets },
      { provide: PortalSecrets, useClass: Sha256PortalSecrets },
      { provide: PortalSessionRepository, useClass: SqlPortalSessionRepository },
      { provide: TenantRepository, useClass: SqlTenantRepository },
      { provide: ApiKeyRepository, useClass: SqlApiKeyRepository },
      { provide: BrandRepository, useClass: SqlBrandRepository },
      { provide: BrandQueries, useClass: SqlBrandQueries },
      { provide: TemplateRepository, useClass: SqlTemplateRepository },
      { provide: PageGroupRepository, useClass: SqlPageGroupRepository },
      { provide: PageGroupQueries, useClass: SqlPageGroupQueries },
      { provide: PageRepository, useClass: SqlPageRepository },
      { provide: PageVersionRepository, useClass: SqlPageVersionRepository },
      { provide: PageSessionRepository, useClass: SqlPageSessionRepository },
      { provide: PageQueries, useClass: SqlPageQueries },
      { provide: TemplateQueries, useClass: SqlTemplateQueries },
      { provide: UnitOfWork, useClass: MikroOrmUnitOfWork },
      { provide: DeliveryRequests, useClass: SqlDeliveryRequests },
      { provide: EventQueries, useClass: SqlEventQueries },
      // Opens its LISTEN connection at the first parked read: the CLI never does.
      { provide: EventFeedWaits, useFactory: () => new PgEventFeedWaits(deps.orm.config.get('clientUrl')!, deps.logger, { perTenant: deps.config.eventFeed.waitsPerTenant, perProcess: deps.config.eventFeed.waitsPerProcess }) },
      { provide: BulkSeeder, useClass: SqlBulkSeeder },
      { provide: IdempotencyStore, useClass: SqlIdempotencyStore },
      { provide: RateLimiter, useValue: deps.rateLimiter ?? new MemoryRateLimiter() },
      { provide: ApiKeyCache, useValue: deps.apiKeyCache ?? new NoApiKeyCache() },
      { provide: RateLimitSettings, useValue: deps.config.rateLimit },
      { provide: Metrics, useValue: deps.metrics ?? new UnservedMetrics() },
      { provide: SecretCipher, useValue: new SecretCipher(resolveEncryptionKey(deps.config.secretsEncryptionKey, deps.config.dataDir, deps.logger)) },
      { provide: SigningSecretGenerator, useClass: RandomSigningSecretGenerator },
      { provide: FilterTargets, useClass: SqlFilterTargets },
      { provide: TargetPolicy, useValue: new AddressTargetPolicy(deps.config.webhooks.allowPrivateTargets) },
      { provide: WebhookLimits, useValue: { subscriptionsPerTenant: deps.config.webhooks.subscriptionsPerTenant, manualPendingPerTenant: deps.config.webhooks.manualPendingPerTenant } },
      { provide: WebhookSubscriptionRepository, useClass: SqlWebhookSubscriptionRepository },
      { provide: WebhookSubscriptionQueries, useClass: SqlWebhookSubscriptionQueries },
      { provide: WebhookDeliveryQueries, useClass: SqlWebhookDeliveryQueries },
      // The worker signs with it; the API shows an attempt's headers but the signatures.
      { provide: WebhookSigner, useClass: HmacWebhookSigner },
      { provide: HistoryDays, useClass: SqlHistoryDays },
      { provide: ReadinessProbe, useClass: DatabaseReadinessProbe },
    ];
    return { module: InfrastructureModule, providers, exports: providers.map((p) => p.provide) };
  }
}
