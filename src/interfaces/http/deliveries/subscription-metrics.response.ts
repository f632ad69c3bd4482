import { ApiProperty } from '@nestjs/swagger';
import { AttemptFigures, METRICS_WINDOWS, MetricsWindow, SubscriptionMetricsView } from '../../../application/webhook/deliveries/subscription-metrics.view';
import { Holds, SameShape } from '../openapi/same-shape';

export class LatencyResponse {
  @ApiProperty({ type: 'integer', example: 42 }) p50!: number;
  @ApiProperty({ type: 'integer', example: 180 }) p95!: number;
  @ApiProperty({ type: 'integer', example: 950 }) p99!: number;
}

export class AttemptFiguresResponse {
  @ApiProperty({ type: 'integer', example: 120 }) attempts!: number;
  @ApiProperty({ type: 'integer', example: 118 }) succeeded!: number;
  @ApiProperty({ type: 'integer', example: 2 }) failed!: number;
  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: 1, example: 0.9833, description: 'succeeded ÷ attempts; null with no attempt.' }) successRate!: number | null;
  @ApiProperty({ type: LatencyResponse, nullable: true, description: 'Attempt durations in ms at these percentiles (nearest rank); null with no attempt.' }) latencyMs!: LatencyResponse | null;
}

export class HourFiguresResponse extends AttemptFiguresResponse {
  @ApiProperty({ format: 'date-time', example: '2026-12-06T10:00:00.000Z' }) start!: string;
}

export class SubscriptionMetricsResponse {
  @ApiProperty({ example: 'whsub_01jdq8x0m2f3e4r5t6y7u8i9o0' }) subscriptionId!: string;
  @ApiProperty({ enum: Object.keys(METRICS_WINDOWS) }) window!: MetricsWindow;
  @ApiProperty({ format: 'date-time', description: 'The window\'s start: a whole hour.' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'The window\'s end: the end of the current hour.' }) to!: string;
  @ApiProperty({ type: AttemptFiguresResponse }) total!: AttemptFiguresResponse;
  @ApiProperty({ type: [HourFiguresResponse], description: 'Every hour of the window, oldest first, empty hours included.' }) hours!: HourFiguresResponse[];
}

export type AttemptFiguresShape = Holds<SameShape<AttemptFiguresResponse, AttemptFigures>>;
export type SubscriptionMetricsShape = Holds<SameShape<SubscriptionMetricsResponse, SubscriptionMetricsView>>;
