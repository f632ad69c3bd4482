import { attemptsOf, type DeliveryJob } from '../../../../src/application/webhook/delivery/delivery-job';
import { deliveryJobId, deliveryQueueName, groupIntoJobs, shardOf } from '../../../../src/infrastructure/queue/bullmq-delivery.queue';

const job = (n: number, over: Partial<DeliveryJob> = {}): DeliveryJob => ({ deliveryId: `whdlv_${n}`, eventId: `evt_${n}`, attempt: 1, delayMs: 0, tenantId: 'tenant_a', endpoint: 'e1', ...over });

describe('attempts grouped into queue jobs', () => {
  it('puts attempts due together for one tenant and endpoint up to the limit in a job, in order', () => {
    const jobs = groupIntoJobs([1, 2, 3, 4, 5].map((n) => job(n)), 2);
    expect(jobs.map((j) => j.data)).toEqual([
      { tenantId: 'tenant_a', endpoint: 'e1', attempts: [{ deliveryId: 'whdlv_1', eventId: 'evt_1', attempt: 1 }, { deliveryId: 'whdlv_2', eventId: 'evt_2', attempt: 1 }] },
      { tenantId: 'tenant_a', endpoint: 'e1', attempts: [{ deliveryId: 'whdlv_3', eventId: 'evt_3', attempt: 1 }, { deliveryId: 'whdlv_4', eventId: 'evt_4', attempt: 1 }] },
      { tenantId: 'tenant_a', endpoint: 'e1', attempts: [{ deliveryId: 'whdlv_5', eventId: 'evt_5', attempt: 1 }] },
    ]);
  });

  it('never mixes tenants, endpoints, delays, the sweeper’s jobs or a backlog with others', () => {
    const jobs = groupIntoJobs(
      [job(1), job(2, { tenantId: 'tenant_b' }), job(3, { endpoint: 'e2' }), job(4, { delayMs: 5000 }), job(5, { requeue: true }), job(6), job(7, { backlog: true })],
      10,
    );
    expect(jobs.map((j) => j.data.attempts.map((a) => a.deliveryId))).toEqual([['whdlv_1', 'whdlv_6'], ['whdlv_2'], ['whdlv_3'], ['whdlv_4'], ['whdlv_5'], ['whdlv_7']]);
    expect(jobs.at(-1)!.first.backlog).toBe(true);
    expect(jobs.find((j) => j.first.deliveryId === 'whdlv_4')!.first.delayMs).toBe(5000);
  });

  it('names a job of one attempt by its attempt, a group by its first attempt and size, and the sweeper’s apart', () => {
    expect(deliveryJobId(job(1))).toBe('whdlv_1.1');
    expect(deliveryJobId(job(1), 0, 4)).toBe('whdlv_1.1+4');
    const swept = [deliveryJobId(job(1, { requeue: true }), 0), deliveryJobId(job(1, { requeue: true }), 1)];
    expect(swept[0]).toMatch(/^whdlv_1\.1\.r[0-9a-z]+0$/);
    expect(new Set(swept).size).toBe(2);
  });

  it('reads the attempts of a job made before groups existed (one attempt at the top level)', () => {
    expect(attemptsOf({ tenantId: 'tenant_a', endpoint: 'e1', deliveryId: 'whdlv_1', attempt: 3 })).toEqual([{ deliveryId: 'whdlv_1', attempt: 3 }]);
    expect(attemptsOf({ tenantId: 'tenant_a', endpoint: 'e1', attempts: [{ deliveryId: 'whdlv_2', eventId: 'evt_2', attempt: 1 }] })).toEqual([{ deliveryId: 'whdlv_2', eventId: 'evt_2', attempt: 1 }]);
  });
});

describe('delivery queues spread by tenant (QUEUE_SHARDS)', () => {
  it('keeps the one queue\'s name with one shard, and gives each of several a hash tag of its own', () => {
    expect(deliveryQueueName(0, 1, '{lp}')).toBe('webhook-deliveries');
    expect([0, 1, 11].map((shard) => deliveryQueueName(shard, 12, 'lp'))).toEqual(['webhook-deliveries-{lp-0}', 'webhook-deliveries-{lp-1}', 'webhook-deliveries-{lp-11}']);
  });

  it('puts a tenant in one shard always, and spreads many tenants over every shard', () => {
    expect(shardOf('tenant_01m8h74g64e0n83wtefzgrpkf7', 1)).toBe(0);
    expect(shardOf('tenant_01m8h74g64e0n83wtefzgrpkf7', 12)).toBe(shardOf('tenant_01m8h74g64e0n83wtefzgrpkf7', 12));
    const counts = new Array(12).fill(0);
    for (let i = 0; i < 12_000; i++) counts[shardOf(`tenant_${i.toString(36).padStart(26, '0')}`, 12)]++;
    // Every shard gets tenants, none more than half again its share.
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(Math.max(...counts)).toBeLessThan(1500);
  });
});
