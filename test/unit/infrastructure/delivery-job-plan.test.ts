import { planDeliveryJobs } from '../../../src/infrastructure/queue/bullmq-delivery.queue';

const due = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ deliveryId: `whdlv_${from + i}`, attempt: 1, delayMs: 0 }));

describe('planDeliveryJobs', () => {
  it('puts attempts due now in batches of at most 20, in order, and a lone one in a job of its own', () => {
    const plan = planDeliveryJobs(due(41));
    expect(plan.map((job) => [job.name, 'attempts' in job.data ? job.data.attempts.length : 1])).toEqual([
      ['deliver-batch', 20],
      ['deliver-batch', 20],
      ['deliver', 1],
    ]);
    expect(plan[2]).toEqual({ name: 'deliver', data: { deliveryId: 'whdlv_40', attempt: 1 }, jobId: 'whdlv_40.1', delay: 0 });
    expect(plan.slice(0, 2).flatMap((job) => ('attempts' in job.data ? job.data.attempts.map((a) => a.deliveryId) : []))).toEqual(due(40).map((job) => job.deliveryId));
  });

  it('keeps a job per delayed attempt (a retry), with its delay and per-attempt id', () => {
    const plan = planDeliveryJobs([
      { deliveryId: 'whdlv_r', attempt: 3, delayMs: 4000 },
      ...due(2),
    ]);
    expect(plan[0]).toEqual({ name: 'deliver', data: { deliveryId: 'whdlv_r', attempt: 3 }, jobId: 'whdlv_r.3', delay: 4000 });
    expect(plan[1]).toMatchObject({ name: 'deliver-batch', delay: 0, data: { attempts: [{ deliveryId: 'whdlv_0', attempt: 1 }, { deliveryId: 'whdlv_1', attempt: 1 }] } });
  });

  it('names a batch by its attempts: the same batch gets the same id, any other a different one', () => {
    const id = (jobs: ReturnType<typeof due>) => planDeliveryJobs(jobs)[0].jobId;
    expect(id(due(5))).toBe(id(due(5)));
    expect(id(due(5))).not.toBe(id(due(5, 1)));
    expect(id(due(5))).not.toBe(id(due(5).map((job) => ({ ...job, attempt: 2 }))));
    expect(id(due(5))).toMatch(/^batch\.[A-Za-z0-9_-]{22}$/);
  });
});
