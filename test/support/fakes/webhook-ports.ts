import { DeliverWebhook } from '../../../src/application/webhook/deliver-webhook.use-case';
import { AttemptResult, DeliveryClaim, DeliveryJob, DeliveryQueue, DeliveryStore, Random, WebhookSender, WebhookSettings, WebhookSigner } from '../../../src/application/webhook/delivery.ports';
import { NextStep } from '../../../src/domain/webhook/retry-policy';
import { FixedClock } from './fixed-clock';

/** The delivery ports in memory, for the use case's and the job processor's unit tests. */
export class FakeStore extends DeliveryStore {
  claimable: DeliveryClaim | null = null;
  recorded: { result: AttemptResult; next: NextStep }[] = [];
  cancelled = 0;
  async claim(_id: string, attempt: number) {
    return this.claimable && this.claimable.attempt === attempt ? this.claimable : null;
  }
  async record(_c: DeliveryClaim, result: AttemptResult, next: NextStep) {
    this.recorded.push({ result, next });
  }
  async cancel() {
    this.cancelled++;
  }
  disabled: { subscriptionId: string; windowMs: number }[] = [];
  dead = true;
  async disableIfDead(subscriptionId: string, _at: Date, windowMs: number) {
    this.disabled.push({ subscriptionId, windowMs });
    return this.dead;
  }
  async findStranded() {
    return [];
  }
}
export class FakeQueue extends DeliveryQueue {
  jobs: DeliveryJob[] = [];
  async enqueue(jobs: DeliveryJob[]) {
    this.jobs.push(...jobs);
  }
}
export class FakeSender extends WebhookSender {
  answers: (number | null)[] = [];
  sent: { url: string; body: string; headers: Record<string, string> }[] = [];
  async send(request: { url: string; body: string; headers: Record<string, string> }) {
    this.sent.push(request);
    const statusCode = this.answers.shift() ?? 204;
    return { statusCode, durationMs: 12, error: statusCode === null ? 'connection failed (ECONNREFUSED)' : null };
  }
}
export class FakeSigner extends WebhookSigner {
  headers(input: { signingSecret: string; body: string }) {
    return { 'x-signed-with': `${input.signingSecret}:${input.body.length}` };
  }
}

/** DeliverWebhook on fake ports; its store can claim attempt 1 of whdlv_1. */
export function deliverWithFakes<S extends FakeStore = FakeStore, T extends FakeSender = FakeSender>(parts: { store?: S; sender?: T } = {}) {
  const store = parts.store ?? (new FakeStore() as S);
  const queue = new FakeQueue();
  const sender = parts.sender ?? (new FakeSender() as T);
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  const settings = new (class extends WebhookSettings {
    retrySchedule = [1000, 2000];
    attemptLockMs = 30000;
  })();
  const random = new (class extends Random {
    next() {
      return 0.5;
    }
  })();
  const deliver = new DeliverWebhook(store, queue, sender, new FakeSigner(), settings, clock, random);
  store.claimable = {
    deliveryId: 'whdlv_1', attempt: 1, tenantId: 't', eventId: 'evt_1', eventType: 'page.version.created', body: '{"a":1}',
    subscription: { id: 'whsub_1', url: 'https://hooks.example/x', signingSecret: 'whsec_s', active: true },
  };
  return { store, queue, sender, deliver };
}
