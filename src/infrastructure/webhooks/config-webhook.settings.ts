import { HealthPolicy } from '../../domain/webhook/endpoint-health';
import { Random } from '../../application/webhook/delivery/random.port';
import { WebhookSettings } from '../../application/webhook/delivery/webhook-settings.port';

export class ConfigWebhookSettings extends WebhookSettings {
  constructor(
    readonly retrySchedule: number[],
    readonly attemptLockMs: number,
    readonly health: HealthPolicy,
  ) {
    super();
  }
}

export class MathRandom extends Random {
  next(): number {
    return Math.random();
  }
}
