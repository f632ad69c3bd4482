import { AttemptSlots } from '../../../src/interfaces/worker/attempt-slots';
import { deliveryProcessor } from '../../../src/interfaces/worker/delivery.processor';
import { deliverWithFakes, FakeSender, FakeStore } from '../../support/fakes/webhook-ports';
import { testLogger } from '../../support/silent-logger';

/** Claims any attempt of any delivery, except those of `failing` (its database call throws). */
class AnyAttemptStore extends FakeStore {
  failing = new Set<string>();
  override async claim(deliveryId: string, attempt: number) {
    if (this.failing.has(deliveryId)) throw new Error('database went away');
    return { ...this.claimable!, deliveryId, attempt };
  }
}

/** Holds every request until `release`, counting how many are held at once. */
class GatedSender extends FakeSender {
  held = 0;
  mostHeld = 0;
  private gates: (() => void)[] = [];
  override async send(request: { url: string; body: string; headers: Record<string, string> }) {
    this.held++;
    this.mostHeld = Math.max(this.mostHeld, this.held);
    await new Promise<void>((resolve) => this.gates.push(resolve));
    this.held--;
    return super.send(request);
  }
  release(): number {
    const gates = this.gates.splice(0);
    gates.forEach((open) => open());
    return gates.length;
  }
}

const batch = (...ids: string[]) => ({ data: { attempts: ids.map((deliveryId) => ({ deliveryId, attempt: 1 })) } });

describe('delivery job processor', () => {
  it('runs one attempt for a single job and answers with its outcome', async () => {
    const { deliver, sender } = deliverWithFakes({ store: new AnyAttemptStore() });
    const outcome = await deliveryProcessor(deliver, testLogger(), new AttemptSlots(4))({ data: { deliveryId: 'whdlv_1', attempt: 1 } });
    expect(outcome).toBe('delivered');
    expect(sender.sent).toHaveLength(1);
  });

  it('sends every attempt of a batch, never more at once than the process has slots', async () => {
    const sender = new GatedSender();
    const { deliver, store } = deliverWithFakes({ store: new AnyAttemptStore(), sender });
    const running = deliveryProcessor(deliver, testLogger(), new AttemptSlots(2))(batch('whdlv_a', 'whdlv_b', 'whdlv_c', 'whdlv_d', 'whdlv_e'));
    let released = 0;
    while (released < 5) {
      await new Promise((tick) => setImmediate(tick));
      released += sender.release();
    }
    expect(await running).toBe('delivered,delivered,delivered,delivered,delivered');
    expect(sender.mostHeld).toBe(2);
    expect(store.recorded).toHaveLength(5);
  });

  it('finishes the rest of a batch when one attempt throws, then fails the job naming how many', async () => {
    const store = new AnyAttemptStore();
    store.failing.add('whdlv_b');
    const { deliver, sender } = deliverWithFakes({ store });
    await expect(deliveryProcessor(deliver, testLogger(), new AttemptSlots(4))(batch('whdlv_a', 'whdlv_b', 'whdlv_c'))).rejects.toThrow('1 of 3 attempts failed: database went away');
    expect(sender.sent).toHaveLength(2);
    expect(store.recorded).toHaveLength(2);
  });
});
