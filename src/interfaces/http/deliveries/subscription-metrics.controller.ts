import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { GetSubscriptionMetrics } from '../../../application/webhook/deliveries/get-subscription-metrics.use-case';
import { METRICS_WINDOWS, MetricsWindow, SubscriptionMetricsView } from '../../../application/webhook/deliveries/subscription-metrics.view';
import { ApiErrors } from '../errors/error-responses.decorator';
import { PortalCapable } from '../guards/portal-capability.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { TenantId } from '../guards/tenant.decorator';
import { Optional } from '../validation/decorators';
import { SubscriptionMetricsResponse } from './subscription-metrics.response';

const WINDOWS = Object.keys(METRICS_WINDOWS) as MetricsWindow[];

export class MetricsQueryDto {
  @ApiPropertyOptional({ enum: WINDOWS, default: '24h', description: 'The last 24 hours or 7 days, by hour.' })
  @Optional()
  @IsIn(WINDOWS, { message: `must be one of: ${WINDOWS.join(', ')}` })
  window?: MetricsWindow;
}

/** How a subscription's receiver has been answering, hour by hour. */
@ApiTags('Webhook subscriptions')
@Controller('v0/webhook_subscriptions/:subscription_id')
export class SubscriptionMetricsController {
  constructor(private readonly getMetrics: GetSubscriptionMetrics) {}

  @Get('metrics')
  @RequiresScope('webhooks:read')
  @PortalCapable('deliveries:read', { subscriptionParam: 'subscription_id' })
  @ApiExtension('x-extension', true)
  @ApiOperation({
    summary: 'Delivery metrics of a subscription',
    description:
      'Attempts, success rate and latency percentiles (p50, p95, p99) by hour over the last 24 hours or 7 days, manual attempts included. ' +
      'An extension of the spec (docs/webhooks.md, Endpoint health).',
  })
  @ApiOkResponse({ type: SubscriptionMetricsResponse })
  @ApiErrors(400, 404)
  metrics(@TenantId() tenantId: string, @Param('subscription_id') subscriptionId: string, @Query() query: MetricsQueryDto): Promise<SubscriptionMetricsView> {
    return this.getMetrics.execute({ tenantId, subscriptionId, window: query.window ?? '24h' });
  }
}
