import { DueAttempt } from '../../application/webhook/delivery/delivery-job';
import { DirectAttemptSeal } from '../../application/webhook/attempt/direct-attempt-seal.port';
import { RedisSeal } from '../crypto/redis-seal';

/** DirectAttemptSeal as an HMAC over everything the worker would trust without a claim. */
export class HmacDirectAttemptSeal extends DirectAttemptSeal {
  private readonly mac: RedisSeal;

  constructor(secretsKey: Buffer) {
    super();
    this.mac = new RedisSeal(secretsKey, 'direct-attempt');
  }

  seal(tenantId: string, due: DueAttempt): string {
    return this.mac.of(partsOf(tenantId, due));
  }

  holds(tenantId: string, due: DueAttempt): boolean {
    return due.direct !== undefined && this.mac.holds(partsOf(tenantId, due), due.direct.seal);
  }
}

function partsOf(tenantId: string, due: DueAttempt): (string | number | boolean | null | undefined)[] {
  const d = due.direct;
  if (!d) return [tenantId, due.deliveryId, due.attempt];
  return [
    tenantId, due.deliveryId, due.attempt, due.eventId, d.readAt, d.subscriptionId, d.version, d.healthy,
    d.eventId, d.eventType, d.orderKey, d.trace?.traceparent, d.trace?.tracestate, d.body,
  ];
}
