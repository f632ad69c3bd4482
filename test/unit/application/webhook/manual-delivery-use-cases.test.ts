import { RecoverDeliveries } from '../../../../src/application/webhook/subscriptions/recover-deliveries.use-case';
import { Redeliver } from '../../../../src/application/webhook/subscriptions/redeliver.use-case';
import { SendTestEvent } from '../../../../src/application/webhook/subscriptions/send-test-event.use-case';
import { InvalidValueError, NotFoundError } from '../../../../src/domain/shared/domain-error';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';
import { DeliveryInProgressError, ManualBacklogFullError } from '../../../../src/domain/webhook/webhook.errors';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { FixedWebhookLimits, InMemorySubscriptions, ScriptedDeliveryRequests } from '../../../support/fakes/in-memory-webhooks';
import { aSubscriptionBody } from '../../../support/builders/subscriptions';

const TENANT = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9';
const OTHER = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8ha';
const T0 = new Date('2026-11-22T12:00:00.000Z');
const DELIVERY = 'whdlv_01jdq8x0m2f3e4r5t6y7u8i9o0';

function setup() {
  const clock = new FixedClock(T0);
  const subscriptions = new InMemorySubscriptions();
  const requests = new ScriptedDeliveryRequests();
  const unitOfWork = new ImmediateUnitOfWork();
  const limits = new FixedWebhookLimits(3, 7);
  const subscription = WebhookSubscription.create({ ...aSubscriptionBody(TENANT), active: false }, 'whsec_x', T0);
  subscriptions.rows.set(subscription.id, subscription);
  const ids = { tenantId: TENANT, subscriptionId: subscription.id };
  return {
    clock, subscriptions, requests, unitOfWork, ids,
    redeliver: new Redeliver(subscriptions, requests, clock, limits, unitOfWork),
    recover: new RecoverDeliveries(subscriptions, requests, clock, limits, unitOfWork),
    test: new SendTestEvent(subscriptions, requests, clock, limits, unitOfWork),
  };
}

describe('Redeliver', () => {
  it('checks the subscription without loading its secrets, then asks for the redelivery in the same unit of work', async () => {
    const { redeliver, requests, subscriptions, unitOfWork, ids } = setup();
    requests.redeliverAnswer = { deliveryId: 'whdlv_new', eventId: 'evt_1', redeliveryOf: DELIVERY };
    expect(await redeliver.execute({ ...ids, grant: null, deliveryId: DELIVERY })).toEqual(requests.redeliverAnswer);
    expect(subscriptions.held).toEqual([ids.subscriptionId]);
    expect(subscriptions.loaded).toEqual([]);
    expect(requests.calls).toEqual([{ method: 'redeliver', input: { ...ids, deliveryId: DELIVERY, now: T0, pendingMax: 7 } }]);
    expect(unitOfWork.runs).toBe(1);
  });

  it.each([
    ['not-found', NotFoundError],
    ['in-flight', DeliveryInProgressError],
    ['no-room', ManualBacklogFullError],
  ] as const)('turns the store answer %s into its error', async (answer, error) => {
    const { redeliver, requests, ids } = setup();
    requests.redeliverAnswer = answer;
    await expect(redeliver.execute({ ...ids, grant: null, deliveryId: DELIVERY })).rejects.toThrow(error);
  });

  it("asks nothing of the store for another tenant's subscription", async () => {
    const { redeliver, requests, ids } = setup();
    await expect(redeliver.execute({ ...ids, grant: null, tenantId: OTHER, deliveryId: DELIVERY })).rejects.toThrow(NotFoundError);
    expect(requests.calls).toEqual([]);
  });
});

describe('RecoverDeliveries', () => {
  it('queues at most the documented number since the time given, within the tenant room', async () => {
    const { recover, requests, subscriptions, ids } = setup();
    requests.recoverAnswer = { queued: 4, hasMore: true };
    const since = new Date(T0.getTime() - 3_600_000);
    expect(await recover.execute({ ...ids, grant: null, since })).toEqual({ queued: 4, hasMore: true });
    expect(requests.calls).toEqual([{ method: 'recover', input: { ...ids, since, now: T0, limit: 10_000, pendingMax: 7 } }]);
    expect(subscriptions.loaded).toEqual([]);
  });

  it.each([
    ['more than 30 days ago', new Date(T0.getTime() - 31 * 86_400_000)],
    ['in the future', new Date(T0.getTime() + 1000)],
  ])('refuses a since %s, naming the field, before touching the store', async (_case, since) => {
    const { recover, requests, ids } = setup();
    await expect(recover.execute({ ...ids, grant: null, since })).rejects.toThrow(InvalidValueError);
    await expect(recover.execute({ ...ids, grant: null, since })).rejects.toMatchObject({ details: { field: 'since' } });
    expect(requests.calls).toEqual([]);
  });
});

describe('SendTestEvent', () => {
  it('adds a test delivery that recorded its webhook.test event, to an inactive subscription too', async () => {
    const { test, requests, subscriptions, ids } = setup();
    const made = await test.execute({ ...ids, grant: null });
    expect(requests.tests).toHaveLength(1);
    const [delivery] = requests.tests;
    expect(made).toEqual({ deliveryId: delivery.id, eventId: delivery.eventId, redeliveryOf: null });
    expect(delivery.peekEvents()).toEqual([{ id: delivery.eventId, type: 'webhook.test', tenantId: TENANT, occurredAt: T0, data: { subscriptionId: ids.subscriptionId } }]);
    expect(subscriptions.loaded).toEqual([]);
  });

  it('answers 429 when the tenant room is full', async () => {
    const { test, requests, ids } = setup();
    requests.testAnswer = 'no-room';
    await expect(test.execute({ ...ids, grant: null })).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 30 });
  });
});
