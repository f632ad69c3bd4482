import { DeliveryJob } from '../../../../src/application/webhook/delivery/delivery-job';
import { DeliveryQueue } from '../../../../src/application/webhook/delivery/delivery-queue.port';
import { StrandedDeliveries } from '../../../../src/application/webhook/sweeper/stranded-deliveries.port';
import { OutboxRelay } from '../../../../src/application/webhook/relay/outbox-relay';
import { DAYS_MADE_AHEAD, RollHistoryDays } from '../../../../src/application/webhook/history/roll-history-days.use-case';
import { RelayOutbox } from '../../../../src/application/webhook/relay/relay-outbox.use-case';
import { RetentionSettings } from '../../../../src/application/webhook/history/retention-settings.port';
import { HistoryDays } from '../../../../src/application/webhook/history/history-days.port';
import { daysAheadOf, MakeHistoryDaysAhead } from '../../../../src/application/webhook/history/make-history-days-ahead.use-case';
import { SweepDeliveries } from '../../../../src/application/webhook/sweeper/sweep-deliveries.use-case';
import { WebhookSettings } from '../../../../src/application/webhook/delivery/webhook-settings.port';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { RecordingTurns } from '../../../support/fakes/recording-turns';

// The worker's use cases that write (through their stores and the queue), with fakes of those
// ports; the stores' SQL is tested against PostgreSQL in test/integration.
const T0 = new Date('2026-11-22T12:00:00.000Z');
const job = (n: number): DeliveryJob => ({ deliveryId: `whdlv_${n}`, eventId: `evt_${n}`, attempt: 1, delayMs: 0, tenantId: 'tenant_1', endpoint: 'e1' });

class RecordingQueue extends DeliveryQueue {
  readonly enqueued: DeliveryJob[][] = [];
  failing = false;
  async enqueue(jobs: DeliveryJob[]): Promise<void> {
    if (this.failing) throw new Error('redis is down');
    this.enqueued.push(jobs);
  }
  waitingFrom: Date | null = null;
  async waitingSince(): Promise<Date | null> {
    if (this.failing) throw new Error('redis is down');
    return this.waitingFrom;
  }
}

class ScriptedRelay extends OutboxRelay {
  constructor(
    private readonly fanned: { events: number; deliveries: DeliveryJob[]; more: boolean; through?: string },
    private readonly requested: DeliveryJob[],
    private readonly queue?: RecordingQueue,
  ) {
    super();
  }
  readonly asked: { limit: number; now: Date; from?: string | null }[] = [];
  /** How many enqueue calls the queue had seen when the requested deliveries were looked for. */
  enqueuedBeforeRequested?: number;
  async fanOut(limit: number, now: Date, from?: string | null) {
    this.asked.push({ limit, now, ...(from !== null && { from }) });
    return this.fanned;
  }
  async takeRequested(limit: number) {
    this.enqueuedBeforeRequested = this.queue?.enqueued.length;
    return this.requested.slice(0, limit);
  }
}

describe('RelayOutbox', () => {
  it("enqueues the fan-out's jobs before it looks for the requested deliveries, then theirs", async () => {
    const queue = new RecordingQueue();
    const relay = new ScriptedRelay({ events: 2, deliveries: [job(1), job(2)], more: false }, [job(3)], queue);
    expect(await new RelayOutbox(relay, queue, new FixedClock(T0)).execute({ limit: 10 })).toEqual({ events: 2, deliveries: 3, enqueued: true, more: false });
    expect(relay.enqueuedBeforeRequested).toBe(1);
    expect(queue.enqueued).toEqual([[job(1), job(2)], [job(3)]]);
    expect(relay.asked).toEqual([{ limit: 10, now: T0 }]);
  });

  it('reads the outbox from the event id it is given, and says which event the round published last', async () => {
    const relay = new ScriptedRelay({ events: 2, deliveries: [job(1)], more: true, through: 'evt_2' }, []);
    expect(await new RelayOutbox(relay, new RecordingQueue(), new FixedClock(T0)).execute({ limit: 2, from: 'evt_1' })).toEqual({ events: 2, deliveries: 1, enqueued: true, more: true, through: 'evt_2' });
    expect(relay.asked).toEqual([{ limit: 2, now: T0, from: 'evt_1' }]);
  });

  it('says there may be more when the requested deliveries filled the round', async () => {
    const relay = new ScriptedRelay({ events: 0, deliveries: [], more: false }, [job(1), job(2)]);
    expect(await new RelayOutbox(relay, new RecordingQueue(), new FixedClock(T0)).execute({ limit: 2 })).toMatchObject({ more: true, deliveries: 2 });
  });

  it('reports a queue that refused the jobs instead of throwing: the rows wait for the sweeper', async () => {
    const queue = Object.assign(new RecordingQueue(), { failing: true });
    const relay = new ScriptedRelay({ events: 1, deliveries: [job(1)], more: false }, []);
    expect(await new RelayOutbox(relay, queue, new FixedClock(T0)).execute({ limit: 10 })).toEqual({ events: 1, deliveries: 1, enqueued: false, more: false });
  });
});

/** Stranded deliveries as PostgreSQL would find them. */
class FoundStranded extends StrandedDeliveries {
  readonly asked: { now: Date; limit: number; graceMs: number; firstGraceMs?: number }[] = [];
  constructor(private readonly stranded: DeliveryJob[]) {
    super();
  }
  async findStranded(now: Date, limit: number, graceMs: number, firstGraceMs?: number) {
    this.asked.push({ now, limit, graceMs, firstGraceMs });
    return this.stranded;
  }
}

describe('SweepDeliveries', () => {
  it('re-enqueues what is stranded past one lease, as new jobs marked requeue', async () => {
    const queue = new RecordingQueue();
    const store = new FoundStranded([job(7)]);
    const settings = { retrySchedule: [1000], attemptLockMs: 30_000 } as WebhookSettings;
    expect(await new SweepDeliveries(store, new RecordingTurns(), queue, new FixedClock(T0), settings).execute({ limit: 50 })).toBe(1);
    // A never-attempted delivery waits half a lease more: its first attempt may be on its way unclaimed.
    expect(store.asked).toEqual([{ now: T0, limit: 50, graceMs: 30_000, firstGraceMs: 45_000 }]);
    expect(queue.enqueued).toEqual([[{ ...job(7), requeue: true, backlog: true }]]);
  });

  it('leaves to their jobs the deliveries handed to the queue since its oldest waiting job; with the queue unknown, the lease alone decides', async () => {
    const asked: (Date | undefined)[] = [];
    const store = new (class extends StrandedDeliveries {
      async findStranded(_now: Date, _limit: number, _graceMs: number, _firstGraceMs?: number, queuedBefore?: Date) {
        asked.push(queuedBefore);
        return [];
      }
    })();
    const queue = new RecordingQueue();
    const settings = { retrySchedule: [1000], attemptLockMs: 30_000 } as WebhookSettings;
    const sweep = new SweepDeliveries(store, new RecordingTurns(), queue, new FixedClock(T0), settings);
    queue.waitingFrom = new Date(T0.getTime() - 60_000);
    await sweep.execute({ limit: 50 });
    queue.waitingFrom = null;
    await sweep.execute({ limit: 50 });
    queue.failing = true;
    await sweep.execute({ limit: 50 });
    // A second before the oldest job's add time: its own deliveries were handed over a moment before it.
    expect(asked).toEqual([new Date(T0.getTime() - 61_000), undefined, undefined]);
  });

  it('passes on the turns nobody holds, in the same enqueue as the stranded', async () => {
    const queue = new RecordingQueue();
    const turns = new RecordingTurns();
    turns.stalled = [job(8)];
    const settings = { retrySchedule: [1000], attemptLockMs: 30_000 } as WebhookSettings;
    expect(await new SweepDeliveries(new FoundStranded([job(7)]), turns, queue, new FixedClock(T0), settings).execute({ limit: 50 })).toBe(2);
    expect(queue.enqueued).toEqual([[{ ...job(7), requeue: true, backlog: true }, { ...job(8), requeue: true, backlog: true }]]);
  });

  it('enqueues the stranded it took when the pass of stalled turns fails, then tells the failure', async () => {
    const queue = new RecordingQueue();
    const turns = new (class extends RecordingTurns {
      override async passStalled(): Promise<DeliveryJob[]> {
        throw new Error('statement timeout');
      }
    })();
    const settings = { retrySchedule: [1000], attemptLockMs: 30_000 } as WebhookSettings;
    await expect(new SweepDeliveries(new FoundStranded([job(7)]), turns, queue, new FixedClock(T0), settings).execute({ limit: 50 })).rejects.toThrow('statement timeout');
    expect(queue.enqueued).toEqual([[{ ...job(7), requeue: true, backlog: true }]]);
  });
});

describe('RollHistoryDays', () => {
  const recorder = () => {
    const calls: string[] = [];
    const days = new (class extends HistoryDays {
      async makeUntil(until: Date) {
        calls.push(`make until ${until.toISOString()}`);
        return ['outbox_events 2026-12-06'];
      }
      async madeThrough() {
        calls.push('made through');
        return new Date(T0.getTime() + 14.5 * 86_400_000);
      }
      async dropWebhookDaysBefore(before: Date) {
        calls.push(`drop webhook days before ${before.toISOString()}`);
        return { statements: ['DROP TABLE IF EXISTS outbox_events_p20261020'], kept: ['outbox_events_p20261021'] };
      }
      async dropSessionDaysBefore(before: Date) {
        calls.push(`drop session days before ${before.toISOString()}`);
        return ['DROP TABLE IF EXISTS page_sessions_p20260101'];
      }
    })();
    return { calls, days };
  };

  it('makes the days ahead, then drops the webhook days past the retention', async () => {
    const { calls, days } = recorder();
    const settings = { retentionDays: 30, sessionRetentionDays: null } as RetentionSettings;
    expect(await new RollHistoryDays(days, settings, new FixedClock(T0)).execute()).toEqual({
      made: ['outbox_events 2026-12-06'],
      statements: ['DROP TABLE IF EXISTS outbox_events_p20261020'],
      kept: ['outbox_events_p20261021'],
    });
    expect(calls).toEqual([`make until ${new Date(T0.getTime() + DAYS_MADE_AHEAD * 86_400_000).toISOString()}`, 'drop webhook days before 2026-10-23T12:00:00.000Z']);
  });

  it('drops page sessions only when their retention is set', async () => {
    const { calls, days } = recorder();
    const settings = { retentionDays: 30, sessionRetentionDays: 365 } as RetentionSettings;
    const rolled = await new RollHistoryDays(days, settings, new FixedClock(T0)).execute();
    expect(rolled.statements).toEqual(['DROP TABLE IF EXISTS outbox_events_p20261020', 'DROP TABLE IF EXISTS page_sessions_p20260101']);
    expect(calls[2]).toBe('drop session days before 2025-11-22T12:00:00.000Z');
  });
});

describe('MakeHistoryDaysAhead', () => {
  it('makes the days ahead and says how many whole days are made', async () => {
    let through: Date | null = null;
    const made: string[] = [];
    const days = new (class extends HistoryDays {
      async makeUntil(until: Date) {
        made.push(until.toISOString());
        through = new Date(until.getTime() + 3_600_000);
        return ['outbox_events 2026-12-20'];
      }
      async madeThrough() {
        return through;
      }
      async dropWebhookDaysBefore(): Promise<{ statements: string[]; kept: string[] }> {
        throw new Error('not this use case');
      }
      async dropSessionDaysBefore(): Promise<string[]> {
        throw new Error('not this use case');
      }
    })();
    expect(await daysAheadOf(days, T0.getTime())).toBeNull();
    expect(await new MakeHistoryDaysAhead(days, new FixedClock(T0)).execute()).toEqual({ made: ['outbox_events 2026-12-20'], daysAhead: 14 });
    expect(made).toEqual([new Date(T0.getTime() + 14 * 86_400_000).toISOString()]);
  });
});
