import type { DeliverWebhook } from '../../../src/application/webhook/attempt/deliver-webhook.use-case';
import type { AttemptInput } from '../../../src/application/webhook/attempt/attempt-input';
import type { DeliveryClaim } from '../../../src/application/webhook/attempt/delivery-claim';
import { InFlightLimits } from '../../../src/interfaces/worker/in-flight-limits';
import { deliveryProcessor } from '../../../src/interfaces/worker/delivery.processor';
import { testLogger } from '../../support/silent-logger';
import { HmacDirectAttemptSeal } from '../../../src/infrastructure/queue/hmac-direct-attempt-seal';
import { groupIntoJobs } from '../../../src/infrastructure/queue/bullmq-delivery.queue';
import type { DeliveryJob, DirectFirstAttempt } from '../../../src/application/webhook/delivery/delivery-job';

// The hand-over of an ordered page's turn inside the worker: the attempt that passed the turn
// starts the page's next version at once on its own slot, so the next version needs no queue job,
// and the tenant's cap holds throughout (a tenant at its cap would otherwise never hand over).
describe('the delivery processor', () => {
  const CLAIMED = { deliveryId: 'next' } as DeliveryClaim;
  const SEAL = new HmacDirectAttemptSeal(Buffer.alloc(32, 1));
  const job = (deliveryId: string) => ({ data: { tenantId: 't', endpoint: 'e', attempts: [{ deliveryId, eventId: `evt_${deliveryId}`, attempt: 1 }] }, moveToDelayed: async () => undefined, updateData: async () => undefined });

  it("starts the page's next version on the slot of the attempt that passed it the turn, within the tenant's cap, until the worker stops", async () => {
    const limits = new InFlightLimits(1, 1);
    const executed: string[] = [];
    const inFlight: number[] = [];
    const handedOver: boolean[] = [];
    const claimedGiven: boolean[] = [];
    let chain = 3;
    const deliver = {
      execute: async (input: AttemptInput) => {
        executed.push(input.deliveryId);
        claimedGiven.push(input.claimed === CLAIMED);
        inFlight.push(limits.inFlightFor('t'));
        if (chain-- > 0) {
          const slot = input.followOn!.reserve();
          handedOver.push(slot !== null);
          slot?.start({ deliveryId: `next_${chain}`, eventId: 'evt', attempt: 1, delayMs: 0, tenantId: 't', endpoint: 'e' }, CLAIMED);
        }
        return { outcome: 'delivered' as const, deliveryId: input.deliveryId, attempt: input.attempt };
      },
    } as unknown as DeliverWebhook;
    const processor = deliveryProcessor(deliver, testLogger(), limits, SEAL);
    await processor(job('first'));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => executed.length === 4 && (clearInterval(poll), resolve()), 5);
    });
    expect(executed).toEqual(['first', 'next_2', 'next_1', 'next_0']);
    // Each next version came already claimed by the pass: it claims nothing of its own.
    expect(claimedGiven).toEqual([false, true, true, true]);
    expect(handedOver).toEqual([true, true, true]);
    // One slot the tenant may hold: every attempt of the chain ran on it, one at a time.
    expect(inFlight).toEqual([1, 1, 1, 1]);
    // Once the worker stops, the next version is enqueued instead (the stop waits for no chain).
    chain = 1;
    const stopping = processor.settled();
    await processor(job('last')).catch(() => undefined);
    await stopping;
    await processor.settled();
    expect(handedOver.at(-1)).toBe(false);
    expect(limits.inFlightFor('t')).toBe(0);
  });

  it('trusts a first attempt made ready to send only with the seal the queue gave it, for that tenant and content (decisions.md 180)', async () => {
    const direct: DirectFirstAttempt = { readAt: 1, subscriptionId: 'whsub_a', version: 'v1', healthy: true, eventId: 'evt_1', eventType: 'brand.created', body: '{"x":1}', trace: null };
    const made: DeliveryJob = { deliveryId: 'whdlv_1', eventId: 'evt_1', attempt: 1, delayMs: 0, tenantId: 't', endpoint: 'e', direct };
    const [sealed] = groupIntoJobs([made], 1, SEAL);
    // Without a seal the queue carries no direct part at all.
    expect(groupIntoJobs([made], 1)[0].data.attempts[0].direct).toBeUndefined();
    const forged = (change: Record<string, unknown>, tenantId = 't') => ({ ...sealed.data, tenantId, attempts: [{ ...sealed.data.attempts[0], ...change }] });
    const cases = [
      sealed.data,
      forged({}, 'another_tenant'),
      forged({ direct: { ...sealed.data.attempts[0].direct, body: '{"x":2}' } }),
      forged({ direct: { ...sealed.data.attempts[0].direct, subscriptionId: 'whsub_b' } }),
      forged({ deliveryId: 'whdlv_2' }),
      forged({ direct: { ...sealed.data.attempts[0].direct, seal: undefined } }),
      forged({ direct: { ...sealed.data.attempts[0].direct, seal: new HmacDirectAttemptSeal(Buffer.alloc(32, 2)).seal('t', sealed.data.attempts[0]) } }),
    ];
    const given: boolean[] = [];
    const deliver = { execute: async (input: AttemptInput) => (given.push(input.direct !== undefined), { outcome: 'delivered' as const, deliveryId: input.deliveryId, attempt: 1 }) } as unknown as DeliverWebhook;
    const processor = deliveryProcessor(deliver, testLogger(), new InFlightLimits(10, 10), SEAL);
    for (const data of cases) await processor({ data, moveToDelayed: async () => undefined, updateData: async () => undefined } as never);
    await processor.settled();
    expect(given).toEqual([true, false, false, false, false, false, false]);
  });
});
