import { deliverWithFakes } from '../../support/fakes/webhook-ports';

describe('DeliverWebhook', () => {
  it('sends the stored body signed, records success, schedules nothing', async () => {
    const { deliver, sender, store, queue } = deliverWithFakes();
    const report = await deliver.execute({ deliveryId: 'whdlv_1', attempt: 1 });
    expect(report).toMatchObject({ outcome: 'delivered', eventId: 'evt_1', subscriptionId: 'whsub_1', statusCode: 204 });
    expect(sender.sent).toEqual([{ url: 'https://hooks.example/x', body: '{"a":1}', headers: { 'x-signed-with': 'whsec_s:7' } }]);
    expect(store.recorded[0].next).toEqual({ status: 'delivered' });
    expect(queue.jobs).toEqual([]);
  });

  it('records a failure and enqueues the next attempt after the scheduled delay', async () => {
    const { deliver, sender, store, queue } = deliverWithFakes();
    sender.answers = [500];
    expect((await deliver.execute({ deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('retrying');
    expect(store.recorded[0].next).toEqual({ status: 'pending', nextAttemptAt: new Date('2026-11-22T12:00:01.000Z') });
    expect(queue.jobs).toEqual([{ deliveryId: 'whdlv_1', attempt: 2, delayMs: 1000 }]);
  });

  it('turns a dead subscription off when the last scheduled attempt fails, and only then', async () => {
    const { deliver, sender, store } = deliverWithFakes();
    sender.answers = [500, 500];
    expect((await deliver.execute({ deliveryId: 'whdlv_1', attempt: 1 })).subscriptionDisabled).toBeUndefined();
    store.claimable!.attempt = 3;
    const report = await deliver.execute({ deliveryId: 'whdlv_1', attempt: 3 });
    expect(report).toMatchObject({ outcome: 'failed', subscriptionDisabled: true });
    expect(store.disabled).toEqual([{ subscriptionId: 'whsub_1', windowMs: 3000 }]);
  });

  it('does not look at the subscription after a 410 (that ends one delivery, not the subscription)', async () => {
    const { deliver, sender, store } = deliverWithFakes();
    sender.answers = [410];
    expect((await deliver.execute({ deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('failed');
    expect(store.disabled).toEqual([]);
  });

  it('does nothing for an attempt it cannot claim (a duplicate job)', async () => {
    const { deliver, sender, store } = deliverWithFakes();
    expect((await deliver.execute({ deliveryId: 'whdlv_1', attempt: 2 })).outcome).toBe('skipped');
    expect(sender.sent).toEqual([]);
    expect(store.recorded).toEqual([]);
  });

  it('cancels without sending when the subscription was deactivated', async () => {
    const { deliver, sender, store } = deliverWithFakes();
    store.claimable!.subscription.active = false;
    expect((await deliver.execute({ deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('cancelled');
    expect(sender.sent).toEqual([]);
    expect(store.cancelled).toBe(1);
  });
});
