import type { AttemptInput, DeliverWebhook } from '../../../src/application/webhook/delivery/deliver-webhook.use-case';
import type { DeliveryClaim } from '../../../src/application/webhook/delivery/delivery-job';
import { InFlightLimits } from '../../../src/application/webhook/delivery/in-flight-limits';
import { deliveryProcessor } from '../../../src/interfaces/worker/delivery.processor';
import { testLogger } from '../../support/silent-logger';

// The hand-over of an ordered page's turn inside the worker: the attempt that passed the turn
// starts the page's next version at once on its own slot, so the next version needs no queue job,
// and the tenant's cap holds throughout (a tenant at its cap would otherwise never hand over).
describe('the delivery processor', () => {
  const CLAIMED = { deliveryId: 'next' } as DeliveryClaim;
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
    const processor = deliveryProcessor(deliver, testLogger(), limits);
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
});
