import { BullmqDeliveryQueue, DELIVERY_QUEUE } from '../../src/infrastructure/queue/bullmq-delivery.queue';
import { BullmqFactory } from '../../src/infrastructure/queue/bullmq-factory';

// The sweeper leaves to their jobs the deliveries handed to the queue since its oldest waiting
// job (SweepDeliveries): that job's add time, read from BullMQ's fresh and backlog lists.
const prefix = `waiting-${process.pid}-${Date.now()}`;
const queue = new BullmqDeliveryQueue(() => new BullmqFactory({ kind: 'redis', url: 'redis://127.0.0.1:6379' }, prefix).queue(DELIVERY_QUEUE));
const job = (n: number, extra: { delayMs?: number; backlog?: true } = {}) => ({
  deliveryId: `whdlv_${n}`, eventId: `evt_${n}`, attempt: 1, delayMs: extra.delayMs ?? 0, tenantId: 'tenant_1', endpoint: `endpoint-${n}`, ...(extra.backlog && { backlog: true }),
});

afterAll(async () => {
  await queue.queue().obliterate({ force: true });
  await queue.close();
});
beforeEach(() => queue.queue().obliterate({ force: true }));

describe('BullmqDeliveryQueue.waitingSince', () => {
  it('is null when no job waits, a retry due later included', async () => {
    expect(await queue.waitingSince()).toBeNull();
    await queue.enqueue([job(1, { delayMs: 60_000 })]);
    expect(await queue.waitingSince()).toBeNull();
  });

  it('is the add time of the oldest job waiting, fresh or in the backlog', async () => {
    const before = Date.now();
    await queue.enqueue([job(2, { backlog: true })]);
    const between = Date.now();
    await queue.enqueue([job(3)]);
    const oldest = (await queue.waitingSince())!.getTime();
    expect(oldest).toBeGreaterThanOrEqual(before);
    expect(oldest).toBeLessThanOrEqual(between);
    // Once the backlog's job is gone, the fresh one is the oldest.
    await (await queue.queue().getJob('whdlv_2.1'))!.remove();
    expect((await queue.waitingSince())!.getTime()).toBeGreaterThanOrEqual(between);
  });
});
