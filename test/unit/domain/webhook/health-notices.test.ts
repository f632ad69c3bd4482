import { FAILING_NOTICE_GAP_MS, NOTHING_TOLD, notice } from '../../../../src/domain/webhook/health-notices';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';
import { wantsEvent } from '../../../../src/domain/webhook/subscription-matching';
import { subscriptionBody } from '../../../support/builders/subscriptions';

const t = (seconds: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, 0) + seconds * 1000);
const policy = { breakerFailures: 2, disableAfterMs: 86_400_000, probeGapsMs: [1000] };

describe('health notices (damped health events)', () => {
  it.each([
    ['nothing changed', null, NOTHING_TOLD, false, NOTHING_TOLD],
    ['a first failing', 'breaker-opened', NOTHING_TOLD, true, { failingSentAt: t(0), recoveryOwed: true }],
    ['a failing within the hour of the last', 'breaker-opened', { failingSentAt: t(-3599), recoveryOwed: false }, false, { failingSentAt: t(-3599), recoveryOwed: false }],
    ['a failing an hour after the last', 'breaker-opened', { failingSentAt: t(-3600), recoveryOwed: false }, true, { failingSentAt: t(0), recoveryOwed: true }],
    ['a recovered owed for a failing sent', 'recovered', { failingSentAt: t(-5), recoveryOwed: true }, true, { failingSentAt: t(-5), recoveryOwed: false }],
    ['a recovered with no failing sent', 'recovered', { failingSentAt: t(-5), recoveryOwed: false }, false, { failingSentAt: t(-5), recoveryOwed: false }],
    ['a disabled', 'disabled', { failingSentAt: t(-5), recoveryOwed: true }, true, { failingSentAt: t(-5), recoveryOwed: false }],
    ['a disabled with nothing told', 'disabled', NOTHING_TOLD, true, NOTHING_TOLD],
  ] as const)('%s', (_, change, told, send, after) => {
    expect(notice(change, told, t(0))).toEqual({ send, told: after });
  });

  it('lets a receiver that fails and answers a probe over and over make one failing and one recovered an hour', () => {
    const s = WebhookSubscription.create({ tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', ...subscriptionBody('https://hooks.example/x') }, 'whsec_x', t(0));
    const changes: string[] = [];
    // Cycles of two failures (the breaker opens) and a probe that succeeds (it closes), every 10 s for two hours.
    for (let second = 0; second < 7200; second += 10) {
      changes.push(String(s.attemptFinished('failed', t(second), policy)));
      changes.push(String(s.attemptFinished('failed', t(second + 1), policy)));
      changes.push(String(s.attemptFinished('delivered', t(second + 2), policy, true)));
    }
    // The breaker acted every cycle…
    expect(changes.filter((c) => c === 'breaker-opened')).toHaveLength(720);
    expect(changes.filter((c) => c === 'recovered')).toHaveLength(720);
    // …but the customer was told twice an hour at most: each failing, then its recovered.
    const told = s.pullEvents().map((e) => `${e.type}@${(e.occurredAt.getTime() - t(0).getTime()) / 1000}`);
    expect(told).toEqual([
      'webhook_subscription.failing@1',
      'webhook_subscription.recovered@2',
      `webhook_subscription.failing@${FAILING_NOTICE_GAP_MS / 1000 + 1}`,
      `webhook_subscription.recovered@${FAILING_NOTICE_GAP_MS / 1000 + 2}`,
    ]);
  });
});

describe('which subscriptions an event goes to (wantsEvent)', () => {
  const s = { id: 'whsub_a', active: true, deleted: false, events: ['page.version.created', 'webhook_subscription.failing'] };
  it.each([
    ['a kind it lists', s, { type: 'page.version.created' }, true],
    ['a kind it does not list', s, { type: 'brand.created' }, false],
    ['a health event about another subscription', s, { type: 'webhook_subscription.failing', about: 'whsub_b' }, true],
    ['a health event about itself', s, { type: 'webhook_subscription.failing', about: 'whsub_a' }, false],
    ['anything, turned off', { ...s, active: false }, { type: 'page.version.created' }, false],
    ['anything, deleted', { ...s, deleted: true }, { type: 'page.version.created' }, false],
  ])('%s', (_, subscription, event, wanted) => {
    expect(wantsEvent(subscription, event)).toBe(wanted);
  });
});
