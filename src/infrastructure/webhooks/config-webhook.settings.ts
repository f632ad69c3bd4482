import { Random, WebhookSettings } from '../../application/webhook/delivery.ports';

export class ConfigWebhookSettings extends WebhookSettings {
  constructor(
    readonly retrySchedule: number[],
    readonly attemptLockMs: number,
  ) {
    super();
  }
}

export class MathRandom extends Random {
  next(): number {
    return Math.random();
  }
}
