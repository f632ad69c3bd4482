import { RefundBatch } from '../../../../src/infrastructure/rate-limit/refund-batch';

describe('RefundBatch', () => {
  it('sends the refunds of one tick together, counted per key, and resolves each caller once they are sent', async () => {
    const sent: [string, number][][] = [];
    const batch = new RefundBatch(async (refunds) => void sent.push(refunds), 5);
    await Promise.all([batch.add('a'), batch.add('b'), batch.add('a')]);
    expect(sent).toEqual([[['a', 2], ['b', 1]]]);
    await batch.add('a');
    expect(sent).toHaveLength(2);
  });

  it('resolves its callers when the store cannot be reached (the request stays counted)', async () => {
    const batch = new RefundBatch(async () => Promise.reject(new Error('redis away')), 1);
    await expect(batch.add('a')).resolves.toBeUndefined();
  });
});
