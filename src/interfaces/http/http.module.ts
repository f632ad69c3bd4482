import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { BrandsController } from './brands/brands.controller';
import { ErrorFilter } from './errors/error.filter';
import { ApiKeyGuard } from './guards/api-key.guard';
import { HealthController } from './health/health.controller';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { PageGroupsController } from './page-groups/page-groups.controller';
import { PagesController } from './pages/pages.controller';
import { EventsController } from './events/events.controller';
import { TemplatesController } from './templates/templates.controller';
import { WebhookSubscriptionsController } from './webhooks/webhook-subscriptions.controller';
import { WebhookOperationsController } from './webhooks/webhook-operations.controller';

@Module({
  controllers: [HealthController, BrandsController, PageGroupsController, PagesController, TemplatesController, WebhookSubscriptionsController, WebhookOperationsController, EventsController],
  providers: [
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_FILTER, useClass: ErrorFilter },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
})
export class HttpModule {}
