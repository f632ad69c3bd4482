import { DeliverWebhook } from '../../../../src/application/webhook/attempt/deliver-webhook.use-case';
import { DeliveryJob, TraceCarrier } from '../../../../src/application/webhook/delivery/delivery-job';
import { AttemptResult, DeliveryClaim } from '../../../../src/application/webhook/attempt/delivery-claim';
import { DeliveryQueue } from '../../../../src/application/webhook/delivery/delivery-queue.port';
import { DeliveryClaims } from '../../../../src/application/webhook/attempt/delivery-claims.port';
import { PutOffAttempts } from '../../../../src/application/webhook/attempt/put-off-attempts.port';
import { SubscriptionNow, SubscriptionTarget, SubscriptionTargets } from '../../../../src/application/webhook/attempt/subscription-targets.port';
import { SubscriptionDeliveryState } from '../../../../src/application/webhook/delivery/subscription-delivery-state';
import { NO_PACE } from '../../../../src/domain/webhook/delivery-pace';
import { HeldDeliveries, HeldOwner } from '../../../../src/application/webhook/held/held-deliveries.port';
import { HeldPages } from '../../../../src/application/webhook/held/held-pages';
import { AttemptFinish } from '../../../../src/application/webhook/attempt/attempt-finish';
import { AttemptStart } from '../../../../src/application/webhook/attempt/attempt-start';
import { BreakersSeenOpen } from '../../../../src/application/webhook/attempt/breakers-seen-open';
import { PageTurnHandOver } from '../../../../src/application/webhook/attempt/page-turn-hand-over';
import { UnclaimedFirstAttempts } from '../../../../src/application/webhook/attempt/unclaimed-first-attempts';
import { Random } from '../../../../src/application/webhook/delivery/random.port';
import { AttemptLabel, WebhookSender } from '../../../../src/application/webhook/attempt/webhook-sender.port';
import { WebhookSettings } from '../../../../src/application/webhook/delivery/webhook-settings.port';
import { WebhookSigner } from '../../../../src/application/webhook/attempt/webhook-signer.port';
import { NextStep } from '../../../../src/domain/webhook/retry-policy';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { NO_ATTEMPT_YET } from '../../../../src/domain/webhook/endpoint-health';
import { NOTHING_TOLD } from '../../../../src/domain/webhook/health-notices';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';
import { StateOf } from '../../../../src/domain/shared/aggregate-root';
import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { InMemorySubscriptions } from '../../../support/fakes/in-memory-webhooks';
import { RecordingTurns } from '../../../support/fakes/recording-turns';

class FakeStore extends DeliveryClaims {
  claimable: DeliveryClaim | null = null;
  recorded: { result: AttemptResult; next: NextStep }[] = [];
  cancelled = 0;
  async claim(_delivery: { deliveryId: string }, attempt: number) {
    return this.claimable && this.claimable.attempt === attempt ? this.claimable : null;
  }
  async record(_c: DeliveryClaim, result: AttemptResult, next: NextStep) {
    this.recorded.push({ result, next });
  }
  async cancel() {
    this.cancelled++;
  }
  writing = true;
  recording() {
    return this.writing;
  }
}
class FakePace extends PutOffAttempts {
  putOffs: { until: Date; slotTaken: boolean }[] = [];
  async putOff(_c: DeliveryClaim, until: Date, slotTaken: boolean) {
    this.putOffs.push({ until, slotTaken });
  }
}
/** Held deliveries as PostgreSQL keeps them: parked ones, and the releases asked for. */
class FakeHeld extends HeldDeliveries {
  holds: string[] = [];
  released: string[] = [];
  async hold(claim: DeliveryClaim) {
    this.holds.push(claim.deliveryId);
  }
  heldAll: string[] = [];
  async holdAll(subscriptionId: string) {
    this.heldAll.push(subscriptionId);
    return 0;
  }
  async holding() {
    return [];
  }
  async wakeProbe() {
    return null;
  }
  async release(owner: HeldOwner) {
    this.released.push(owner.id);
    return { jobs: [], spreadMs: 0 };
  }
}
/** Subscriptions' targets as the worker keeps them, by version. */
class FakeTargets extends SubscriptionTargets {
  versions = new Map<string, { version: string; target: SubscriptionTarget }>([['whsub_1', { version: 'v1', target: { url: 'https://hooks.example/x', signingSecret: 'whsec_s', previousSecrets: [] } }]]);
  async target(subscriptionId: string, version: string) {
    const found = this.versions.get(subscriptionId);
    return found?.version === version ? found.target : null;
  }
  /** The subscription's delivery state now, as PostgreSQL would answer; `reads` counts the reads. */
  state: SubscriptionNow | null = {
    subscription: { id: 'whsub_1', active: true, deleted: false, events: ['page.version.created'], disabledReason: null, nextProbeAt: null },
    pace: { ratePerSecond: null, notBefore: null, slotAt: null },
    healthy: true,
    version: 'v1',
  };
  reads = 0;
  async now() {
    this.reads++;
    return this.state;
  }
}
/** The job's tenant and endpoint, as the processor passes them with each attempt. */
const JOB = { tenantId: 't', endpoint: 'endpoint-1' };
class FakeQueue extends DeliveryQueue {
  jobs: DeliveryJob[] = [];
  async enqueue(jobs: DeliveryJob[]) {
    this.jobs.push(...jobs);
  }
  async waitingSince(): Promise<Date | null> {
    return null;
  }
}
const TRACE = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'acme=1' };

class FakeSender extends WebhookSender {
  answers: (number | null | { statusCode: number; retryAfterMs: number })[] = [];
  sent: { url: string; body: string; headers: Record<string, string> }[] = [];
  sentWith: { trace?: TraceCarrier | null; attempt?: AttemptLabel }[] = [];
  async send({ trace, attempt, ...request }: { url: string; body: string; headers: Record<string, string>; trace?: TraceCarrier | null; attempt?: AttemptLabel }) {
    this.sent.push(request);
    this.sentWith.push({ trace, attempt });
    const answer = this.answers.shift() ?? 204;
    if (answer !== null && typeof answer === 'object') return { statusCode: answer.statusCode, durationMs: 12, error: null, retryAfterMs: answer.retryAfterMs };
    return { statusCode: answer, durationMs: 12, error: answer === null ? 'connection failed (ECONNREFUSED)' : null };
  }
}
class FakeSigner extends WebhookSigner {
  headers(input: { signingSecret: string; previousSecrets?: string[]; body: string }) {
    return { 'x-signed-with': [input.signingSecret, ...(input.previousSecrets ?? [])].map((secret) => `${secret}:${input.body.length}`).join(' ') };
  }
  shownHeaders() {
    return {};
  }
}

function setup() {
  const store = new FakeStore();
  const pace = new FakePace();
  const queue = new FakeQueue();
  const sender = new FakeSender();
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  const settings = new (class extends WebhookSettings {
    retrySchedule = [1000, 2000];
    attemptLockMs = 30000;
    health = { breakerFailures: 2, disableAfterMs: 60_000, probeGapsMs: [1000, 2000] };
  })();
  const random = new (class extends Random {
    next() {
      return 0.5;
    }
  })();
  // The subscription the claim names, as its repository keeps it (the health rules run on it).
  const subscriptions = new InMemorySubscriptions();
  subscriptions.rows.set('whsub_1', WebhookSubscription.restore({
    id: 'whsub_1', tenantId: 't', url: 'https://hooks.example/x', events: ['page.version.created'], active: true, signingSecret: 'whsec_s', previousSecrets: [],
    rateLimitPerSecond: null, filter: null, ordering: 'none', health: NO_ATTEMPT_YET, healthNotices: NOTHING_TOLD, pace: NO_PACE, createdAt: clock.now(), updatedAt: clock.now(), deletedAt: null,
  }));
  const unitOfWork = new ImmediateUnitOfWork();
  const held = new FakeHeld();
  const state = new SubscriptionDeliveryState(subscriptions, unitOfWork, settings);
  const pages = new HeldPages(held, queue, random);
  const targets = new FakeTargets();
  const turns = new RecordingTurns();
  const handOver = new PageTurnHandOver(turns, queue, settings);
  const seenOpen = new BreakersSeenOpen();
  const deliver = new DeliverWebhook(
    new UnclaimedFirstAttempts(store, targets, seenOpen, settings, clock),
    new AttemptStart(store, state, held, pace, queue, handOver, settings, clock, random),
    new AttemptFinish(state, store, pages, handOver, queue, seenOpen, settings, clock, random),
    sender,
    new FakeSigner(),
    clock,
  );
  store.claimable = {
    deliveryId: 'whdlv_1', attempt: 1, tenantId: 't', eventId: 'evt_1', eventType: 'page.version.created', body: '{"a":1}', trace: TRACE,
    subscription: { id: 'whsub_1', url: 'https://hooks.example/x', signingSecret: 'whsec_s', previousSecrets: [], active: true, deleted: false, events: ['page.version.created'], healthy: true, disabledReason: null, nextProbeAt: null },
    manual: null,
    probe: false,
    orderKey: null,
    endpoint: 'endpoint-1',
    pace: { ratePerSecond: null, notBefore: null, slotAt: null },
  };
  const health = () => subscriptions.rows.get('whsub_1')!.health;
  /** The subscription's pace as its repository keeps it; `limit` sets its rate first. */
  const stored = (change: Partial<StateOf<WebhookSubscription>> = {}) => {
    subscriptions.rows.set('whsub_1', WebhookSubscription.restore({ ...subscriptions.rows.get('whsub_1')!, ...change }));
    return subscriptions.rows.get('whsub_1')!;
  };
  return { stored, store, pace, held, queue, sender, deliver, clock, subscriptions, unitOfWork, health, targets, turns };
}

describe('DeliverWebhook', () => {
  describe('a first attempt the relay made ready (no claim)', () => {
    const direct = (readAt: Date, version = 'v1') => ({
      readAt: readAt.getTime(), subscriptionId: 'whsub_1', version, healthy: true, eventId: 'evt_9', eventType: 'page.version.created', body: '{"b":2}', trace: null,
    });

    it('is sent as the relay read it, to the kept target, without a claim, and recorded', async () => {
      const { deliver, sender, store, clock } = setup();
      store.claimable = null;
      const readAt = clock.now();
      clock.advance(1999);
      const report = await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(readAt) });
      expect(report).toMatchObject({ outcome: 'delivered', deliveryId: 'whdlv_9', eventId: 'evt_9', subscriptionId: 'whsub_1' });
      expect(sender.sent).toEqual([{ url: 'https://hooks.example/x', body: '{"b":2}', headers: { 'x-signed-with': 'whsec_s:7' } }]);
      expect(store.recorded.map((r) => r.next)).toEqual([{ status: 'delivered' }]);
    });

    it('past the relay’s window (2 s) is decided again on the subscription read afresh: sent unclaimed when that says to send', async () => {
      const { deliver, sender, store, clock, targets } = setup();
      store.claimable = null;
      const readAt = clock.now();
      clock.advance(2001);
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(readAt) })).outcome).toBe('delivered');
      expect(targets.reads).toBe(1);
      // Its breaker opened since the read: not sent unclaimed (the claim holds it).
      targets.state = { ...targets.state!, subscription: { ...targets.state!.subscription, nextProbeAt: new Date(clock.now().getTime() + 5000) }, healthy: false };
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(readAt) })).outcome).toBe('skipped');
      // Turned off, or deleted, since: the same.
      targets.state = { ...targets.state!, subscription: { ...targets.state!.subscription, nextProbeAt: null, active: false } };
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(readAt) })).outcome).toBe('skipped');
      targets.state = null;
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(readAt) })).outcome).toBe('skipped');
      expect(sender.sent).toHaveLength(1);
    });

    it('is claimed, not sent, when this worker opened its breaker since the relay read it; sent unclaimed when read after', async () => {
      const { deliver, sender, store, clock } = setup();
      const readBefore = clock.now();
      sender.answers = [500, 500, 204];
      await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
      store.claimable = { ...store.claimable!, attempt: 2, subscription: { ...store.claimable!.subscription, healthy: false } };
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 2 })).health).toBe('breaker-opened');
      store.claimable = null;
      // Read at the same instant the breaker opened, or before: claimed (nothing to claim here), not sent.
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(readBefore) })).outcome).toBe('skipped');
      expect(sender.sent).toHaveLength(2);
      // Read after it opened (the relay saw the breaker and still made it ready): sent as read.
      clock.advance(1);
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(clock.now()) })).outcome).toBe('delivered');
      expect(sender.sent).toHaveLength(3);
    });

    it('is claimed when the target changed since the read, for a later attempt, while records fail, and after half a lease (the sweeper’s job may exist)', async () => {
      const { deliver, sender, store, clock, targets } = setup();
      store.claimable = null;
      // A rotation or a new URL since the read: the kept target is another version.
      targets.versions.set('whsub_1', { version: 'v2', target: { url: 'https://hooks.example/new', signingSecret: 'whsec_new', previousSecrets: [] } });
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(clock.now(), 'v1') })).outcome).toBe('skipped');
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 2, direct: direct(clock.now(), 'v2') })).outcome).toBe('skipped');
      // The last record failed (the database cut): claimed, which fails before sending.
      store.writing = false;
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(clock.now(), 'v2') })).outcome).toBe('skipped');
      store.writing = true;
      const readAt = clock.now();
      clock.advance(15_001);
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_9', attempt: 1, direct: direct(readAt, 'v2') })).outcome).toBe('skipped');
      expect(sender.sent).toEqual([]);
      // With the claim there, the changed target is the one read afresh.
      store.claimable = { ...setup().store.claimable!, subscription: { ...setup().store.claimable!.subscription, url: 'https://hooks.example/new' } };
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1, direct: direct(clock.now(), 'v1') })).outcome).toBe('delivered');
      expect(sender.sent.map((r) => r.url)).toEqual(['https://hooks.example/new']);
    });
  });

  it('sends the stored body signed, records success, schedules nothing', async () => {
    const { deliver, sender, store, queue } = setup();
    const report = await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
    expect(report).toMatchObject({ outcome: 'delivered', eventId: 'evt_1', subscriptionId: 'whsub_1', statusCode: 204 });
    expect(sender.sent).toEqual([{ url: 'https://hooks.example/x', body: '{"a":1}', headers: { 'x-signed-with': 'whsec_s:7' } }]);
    // The attempt continues the trace the event was written in, and says which attempt it is.
    expect(sender.sentWith).toEqual([
      { trace: TRACE, attempt: { deliveryId: 'whdlv_1', eventId: 'evt_1', eventType: 'page.version.created', subscriptionId: 'whsub_1', tenantId: 't', number: 1 } },
    ]);
    expect(store.recorded[0].next).toEqual({ status: 'delivered' });
    expect(queue.jobs).toEqual([]);
  });

  it('reports when its request left, not when the answer came or the attempt was recorded (its log line is written after both)', async () => {
    const { deliver, sender, clock } = setup();
    const left = clock.now();
    // The answer takes 300 ms of the clock.
    const send = sender.send.bind(sender);
    sender.send = async (request) => {
      clock.advance(300);
      return send(request);
    };
    const report = await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
    expect(report.outcome).toBe('delivered');
    expect(report.sentAt).toEqual(left);
    expect(clock.now().getTime() - left.getTime()).toBe(300);
  });

  it('tells when its request is over, after the answer and before the record (the endpoint slot goes then), and not when it sends nothing', async () => {
    const { deliver, sender, store } = setup();
    const told: string[] = [];
    const requestEnded = () => told.push(`ended after ${sender.sent.length} sent, ${store.recorded.length} recorded`);
    await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1, requestEnded });
    expect(told).toEqual(['ended after 1 sent, 0 recorded']);
    // A duplicate job finds nothing to claim: no request, nothing told (the slot goes with the attempt).
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 2, requestEnded })).outcome).toBe('skipped');
    expect(told).toHaveLength(1);
  });

  it('records a failure and enqueues the next attempt after the scheduled delay', async () => {
    const { deliver, sender, store, queue } = setup();
    sender.answers = [500];
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('retrying');
    expect(store.recorded[0].next).toEqual({ status: 'pending', nextAttemptAt: new Date('2026-11-22T12:00:01.000Z') });
    expect(queue.jobs).toEqual([{ deliveryId: 'whdlv_1', eventId: 'evt_1', attempt: 2, delayMs: 1000, tenantId: 't', endpoint: 'endpoint-1' }]);
  });

  it('no longer turns a subscription off when one delivery’s schedule is used up (its health says it is failing)', async () => {
    const { deliver, sender, store, subscriptions } = setup();
    sender.answers = [500];
    store.claimable!.attempt = 3;
    expect(await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 3 })).toMatchObject({ outcome: 'failed' });
    expect(subscriptions.rows.get('whsub_1')).toMatchObject({ active: true, health: { consecutiveFailures: 1 } });
  });

  it('holds a scheduled attempt while the breaker is open (parked, no job), sends the probe the worker woke, and releases the rest when it succeeds', async () => {
    const { deliver, sender, held, queue, clock, subscriptions, store } = setup();
    const probeAt = new Date(clock.now().getTime() + 5000);
    store.claimable!.subscription = { ...store.claimable!.subscription, healthy: false, nextProbeAt: probeAt };
    expect(await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).toMatchObject({ outcome: 'held' });
    expect(sender.sent).toEqual([]);
    expect(held.holds).toEqual(['whdlv_1']);
    expect(queue.jobs).toEqual([]);
    // Its time has come: the worker woke it as the probe, and a success closes the breaker.
    clock.advance(5000);
    const opened = subscriptions.rows.get('whsub_1')!;
    subscriptions.rows.set('whsub_1', WebhookSubscription.restore({ ...opened, health: { ...opened.health, consecutiveFailures: 2, nextProbeAt: probeAt } }));
    store.claimable = { ...store.claimable!, probe: true };
    expect(await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).toMatchObject({ outcome: 'delivered', health: 'recovered' });
    expect(held.released).toEqual(['whsub_1']);
    // Manual attempts are not held: a customer's test goes through.
    store.claimable = { ...store.claimable!, probe: false, manual: { redeliveryOf: null }, subscription: { ...store.claimable!.subscription, nextProbeAt: new Date(clock.now().getTime() + 60_000) } };
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('delivered');
  });

  it('holds a delivery that is to be tried again while the breaker is open, with no job, and never gives it up for its schedule', async () => {
    const { deliver, sender, store, queue, held } = setup();
    sender.answers = [500, 500];
    await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
    store.claimable = { ...store.claimable!, attempt: 2, subscription: { ...store.claimable!.subscription, healthy: false } };
    // The second failure opens the breaker (2 here), and was the schedule's last attempt.
    expect(await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 2 })).toMatchObject({ outcome: 'retrying', health: 'breaker-opened' });
    expect(store.recorded[1].next).toEqual({ status: 'pending', nextAttemptAt: null });
    expect(queue.jobs.map((j) => j.attempt)).toEqual([2]);
    // Everything else of the subscription waiting for an attempt is held at once.
    expect(held.heldAll).toEqual(['whsub_1']);
  });

  it('turns the subscription off as gone on a 410, which also ends the delivery', async () => {
    const { deliver, sender, health, subscriptions } = setup();
    sender.answers = [410];
    expect(await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).toMatchObject({ outcome: 'failed', health: 'disabled', subscriptionDisabled: true });
    expect(health()).toMatchObject({ disabledReason: 'gone', consecutiveFailures: 1 });
    expect(subscriptions.rows.get('whsub_1')!.active).toBe(false);
    expect(subscriptions.events.map((e) => [e.type, (e.data as { health: { state: string } }).health.state])).toEqual([['webhook_subscription.disabled', 'disabled']]);
  });

  it('keeps the endpoint health: failures counted, the breaker opened at the threshold, a success makes it healthy', async () => {
    const { deliver, sender, store, health, subscriptions } = setup();
    sender.answers = [500, 500, 204];
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).health).toBeUndefined();
    store.claimable = { ...store.claimable!, attempt: 2, subscription: { ...store.claimable!.subscription, healthy: false } };
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 2 })).health).toBe('breaker-opened');
    expect(health()).toMatchObject({ consecutiveFailures: 2, lastFailureAt: new Date('2026-11-22T12:00:00.000Z'), disableAt: new Date('2026-11-22T12:01:00.000Z') });
    store.claimable = { ...store.claimable!, attempt: 3 };
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 3 })).health).toBe('recovered');
    expect(health()).toMatchObject({ consecutiveFailures: 0, lastSuccessAt: new Date('2026-11-22T12:00:00.000Z'), disableAt: null });
    expect(subscriptions.events.map((e) => e.type)).toEqual(['webhook_subscription.failing', 'webhook_subscription.recovered']);
  });

  it('notes a healthy endpoint’s last success at most once a second (a drain would queue on the row lock)', async () => {
    const { deliver, unitOfWork, clock, health } = setup();
    await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
    expect(unitOfWork.runs).toBe(1);
    expect(health().lastSuccessAt).toEqual(clock.now());
    const first = clock.now();
    clock.advance(999);
    await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
    expect(unitOfWork.runs).toBe(1);
    expect(health().lastSuccessAt).toEqual(first);
    clock.advance(1);
    await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
    expect(unitOfWork.runs).toBe(2);
    expect(health().lastSuccessAt).toEqual(clock.now());
  });

  it('does nothing for an attempt it cannot claim (a duplicate job)', async () => {
    const { deliver, sender, store } = setup();
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 2 })).outcome).toBe('skipped');
    expect(sender.sent).toEqual([]);
    expect(store.recorded).toEqual([]);
  });

  it('cancels a pending retry without sending when the subscription no longer lists the event kind', async () => {
    const { deliver, sender, store } = setup();
    store.claimable!.subscription.events = ['brand.updated'];
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('cancelled');
    expect(sender.sent).toEqual([]);
    expect(store.cancelled).toBe(1);
  });

  it('cancels without sending when the subscription was deactivated', async () => {
    const { deliver, sender, store } = setup();
    store.claimable!.subscription.active = false;
    expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('cancelled');
    expect(sender.sent).toEqual([]);
    expect(store.cancelled).toBe(1);
  });

  it('signs with the old secrets still valid at the send, newest first, beside the current one', async () => {
    const { deliver, sender, store } = setup();
    store.claimable!.subscription.previousSecrets = [
      { secret: 'whsec_old', expiresAt: new Date('2026-11-22T12:00:00.001Z') },
      { secret: 'whsec_older', expiresAt: new Date('2026-11-22T12:00:00.000Z') },
    ];
    await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
    expect(sender.sent[0].headers).toEqual({ 'x-signed-with': 'whsec_s:7 whsec_old:7' });
  });

  describe('an ordered delivery (it holds its page\'s turn)', () => {
    const NEXT = { deliveryId: 'whdlv_2', eventId: 'evt_2', attempt: 1, delayMs: 0, tenantId: 't', endpoint: 'endpoint-1', requeue: true };

    it('passes the turn on once it is delivered, and enqueues the page\'s next delivery', async () => {
      const { deliver, store, queue, turns } = setup();
      store.claimable!.orderKey = 'pagevar_1';
      turns.next = NEXT;
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('delivered');
      expect(turns.passed).toEqual([{ tenantId: 't', subscriptionId: 'whsub_1', orderKey: 'pagevar_1' }]);
      expect(queue.jobs).toEqual([NEXT]);
    });

    it("hands its slot to the page's next delivery, claimed by the pass, and enqueues it only when the worker keeps no slot", async () => {
      for (const kept of [true, false]) {
        const { deliver, store, queue, turns } = setup();
        store.claimable!.orderKey = 'pagevar_1';
        turns.next = NEXT;
        const nextClaim = { ...store.claimable!, deliveryId: 'whdlv_2', eventId: 'evt_2' };
        turns.nextClaim = nextClaim;
        const started: unknown[] = [];
        let cancelled = 0;
        const followOn = { reserve: () => (kept ? { start: (next: unknown, claim: unknown) => started.push([next, claim]), cancel: () => cancelled++ } : null) };
        expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1, followOn })).outcome).toBe('delivered');
        expect(started).toEqual(kept ? [[NEXT, nextClaim]] : []);
        expect(cancelled).toBe(0);
        expect(queue.jobs).toEqual(kept ? [] : [NEXT]);
      }
    });

    it('gives the kept slot back when nothing waits, or when another took the next delivery first (its job is then enqueued, and finds nothing)', async () => {
      for (const next of [null, NEXT]) {
        const { deliver, store, queue, turns } = setup();
        store.claimable!.orderKey = 'pagevar_1';
        turns.next = next;
        let cancelled = 0;
        const followOn = { reserve: () => ({ start: () => { throw new Error('nothing to start'); }, cancel: () => cancelled++ }) };
        expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1, followOn })).outcome).toBe('delivered');
        expect(cancelled).toBe(1);
        expect(queue.jobs).toEqual(next ? [NEXT] : []);
      }
    });

    it('sends an attempt the pass claimed for it without claiming it again', async () => {
      const { deliver, sender, store } = setup();
      const claimed = { ...store.claimable! };
      store.claimable = null;
      expect((await deliver.execute({ ...JOB, deliveryId: claimed.deliveryId, attempt: claimed.attempt, claimed })).outcome).toBe('delivered');
      expect(sender.sent).toHaveLength(1);
    });

    it('keeps the turn while it is to be tried again', async () => {
      const { deliver, sender, store, turns } = setup();
      store.claimable!.orderKey = 'pagevar_1';
      sender.answers = [500];
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('retrying');
      expect(turns.passed).toEqual([]);
    });

    it('passes the turn on when it gives up, and when it is cancelled unsent', async () => {
      const gaveUp = setup();
      gaveUp.store.claimable!.orderKey = 'pagevar_1';
      gaveUp.store.claimable!.attempt = 3;
      gaveUp.sender.answers = [500];
      expect((await gaveUp.deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 3 })).outcome).toBe('failed');
      expect(gaveUp.turns.passed).toHaveLength(1);
      const cancelled = setup();
      cancelled.store.claimable!.orderKey = 'pagevar_1';
      cancelled.store.claimable!.subscription.active = false;
      expect((await cancelled.deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('cancelled');
      expect(cancelled.turns.passed).toEqual([{ tenantId: 't', subscriptionId: 'whsub_1', orderKey: 'pagevar_1' }]);
    });

    it('passes no turn for a delivery that is not ordered', async () => {
      const { deliver, turns } = setup();
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('delivered');
      expect(turns.passed).toEqual([]);
    });
  });

  describe('a manual delivery (redeliver, recover, test)', () => {
    it('is one attempt: a failure ends it without a retry, counted in the endpoint health', async () => {
      const { deliver, sender, store, queue, health, subscriptions } = setup();
      store.claimable!.manual = { redeliveryOf: 'whdlv_0' };
      sender.answers = [500];
      expect(await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).toMatchObject({ outcome: 'failed', trigger: 'manual', statusCode: 500 });
      expect(store.recorded[0].next).toEqual({ status: 'failed', reason: 'schedule-exhausted' });
      expect(queue.jobs).toEqual([]);
      expect(health().consecutiveFailures).toBe(1);
      expect(subscriptions.rows.get('whsub_1')!.active).toBe(true);
    });

    it('is sent to an inactive subscription, or one that does not list the kind (the customer asked)', async () => {
      const { deliver, sender, store } = setup();
      store.claimable!.manual = { redeliveryOf: null };
      store.claimable!.subscription.active = false;
      store.claimable!.subscription.events = ['brand.updated'];
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('delivered');
      expect(sender.sent).toHaveLength(1);
    });

    it('is cancelled unsent when the subscription was deleted since it was asked for', async () => {
      const { deliver, sender, store } = setup();
      store.claimable!.manual = { redeliveryOf: 'whdlv_0' };
      store.claimable!.subscription.active = false;
      store.claimable!.subscription.deleted = true;
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('cancelled');
      expect(sender.sent).toEqual([]);
    });
  });

  describe('receivers set the pace', () => {
    it('after a 429 with Retry-After retries no sooner than asked, and holds every attempt to that subscription until then', async () => {
      const { deliver, store, queue, stored } = setup();
      const sender = (deliver as unknown as { sender: FakeSender }).sender;
      sender.answers = [{ statusCode: 429, retryAfterMs: 4000 }];
      const report = await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
      expect(report.outcome).toBe('retrying');
      // The schedule says 1 s (±20 %); the receiver said 4 s.
      expect(store.recorded[0].next).toEqual({ status: 'pending', nextAttemptAt: new Date('2026-11-22T12:00:04.000Z') });
      expect(queue.jobs[0].delayMs).toBe(4000);
      expect(stored().pace.notBeforeMs).toBe(new Date('2026-11-22T12:00:04.000Z').getTime());
    });

    it('bounds a Retry-After of days at a day', async () => {
      const { deliver, stored } = setup();
      (deliver as unknown as { sender: FakeSender }).sender.answers = [{ statusCode: 503, retryAfterMs: 30 * 86_400_000 }];
      await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
      expect(stored().pace.notBeforeMs).toBe(new Date('2026-11-23T12:00:00.000Z').getTime());
    });

    it('holds a scheduled attempt, unsent and uncounted, while its subscription is held by a Retry-After: parked, no job', async () => {
      const { deliver, store, held, queue, sender } = setup();
      store.claimable!.pace = { ratePerSecond: null, notBefore: new Date('2026-11-22T12:00:03.000Z'), slotAt: null };
      expect(await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).toMatchObject({ outcome: 'held' });
      expect(sender.sent).toEqual([]);
      expect(store.recorded).toEqual([]);
      expect(held.holds).toEqual(['whdlv_1']);
      expect(queue.jobs).toEqual([]);
    });

    it('puts a manual attempt off past the Retry-After, spread over a fifth of the wait (at least a second), and its job comes back then', async () => {
      const { deliver, pace, store, queue, sender } = setup();
      store.claimable!.manual = { redeliveryOf: null };
      store.claimable!.pace = { ratePerSecond: null, notBefore: new Date('2026-11-22T12:00:03.000Z'), slotAt: null };
      const report = await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
      // random 0.5 of max(1 s, 0.6 s): 500 ms past it.
      expect(report).toMatchObject({ outcome: 'put off', putOffUntil: '2026-11-22T12:00:03.500Z' });
      expect(sender.sent).toEqual([]);
      expect(pace.putOffs).toEqual([{ until: new Date('2026-11-22T12:00:03.500Z'), slotTaken: false }]);
      expect(queue.jobs).toEqual([{ deliveryId: 'whdlv_1', eventId: 'evt_1', attempt: 1, delayMs: 3500, tenantId: 't', endpoint: 'endpoint-1', requeue: true }]);
    });

    it('at a rate of 5 a second sends the first at once and gives the next ones slots 200 ms apart, kept when their jobs come back', async () => {
      const { deliver, pace, store, sender, clock, stored } = setup();
      stored({ rateLimitPerSecond: 5 });
      store.claimable!.pace = { ratePerSecond: 5, notBefore: null, slotAt: null };
      const reports = [];
      for (let i = 0; i < 3; i++) reports.push(await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 }));
      expect(reports.map((r) => r.outcome)).toEqual(['delivered', 'put off', 'put off']);
      expect(pace.putOffs).toEqual([
        { until: new Date('2026-11-22T12:00:00.200Z'), slotTaken: true },
        { until: new Date('2026-11-22T12:00:00.400Z'), slotTaken: true },
      ]);
      // The second comes back at its slot: sent without taking another.
      clock.advance(200);
      const nextSlot = stored().pace.notBeforeMs;
      store.claimable!.pace = { ratePerSecond: 5, notBefore: new Date(nextSlot!), slotAt: new Date('2026-11-22T12:00:00.200Z') };
      expect((await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('delivered');
      expect(stored().pace.notBeforeMs).toBe(nextSlot);
      expect(sender.sent).toHaveLength(2);
    });

    it('gives an attempt that comes back late for its slot a new one, so it cannot land next to the following slot', async () => {
      const { deliver, pace, store, sender, clock, stored } = setup();
      // Its slot was 12:00:00.000; the job comes back 120 ms late (over the 100 ms allowed at 5 a second).
      clock.advance(120);
      stored({ rateLimitPerSecond: 5, pace: { ...NO_PACE, notBeforeMs: new Date('2026-11-22T12:00:00.400Z').getTime() } });
      store.claimable!.pace = { ratePerSecond: 5, notBefore: new Date('2026-11-22T12:00:00.400Z'), slotAt: new Date('2026-11-22T12:00:00.000Z') };
      const report = await deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 });
      expect(report.outcome).toBe('put off');
      expect(pace.putOffs).toEqual([{ until: new Date('2026-11-22T12:00:00.400Z'), slotTaken: true }]);
      expect(sender.sent).toEqual([]);
      // 90 ms late is within it: sent.
      const again = setup();
      again.stored({ rateLimitPerSecond: 5 });
      again.clock.advance(90);
      again.store.claimable!.pace = { ratePerSecond: 5, notBefore: null, slotAt: new Date('2026-11-22T12:00:00.000Z') };
      expect((await again.deliver.execute({ ...JOB, deliveryId: 'whdlv_1', attempt: 1 })).outcome).toBe('delivered');
    });
  });
});
