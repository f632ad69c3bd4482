import { DeliveryState } from '../../../../src/domain/webhook/attempt-decision';
import { earliestUnrelayed, pagesAsked, planRound, RoundEvent, RoundSubscription, takeTurns } from '../../../../src/domain/webhook/relay-plan';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

const versionOf = (id: string, page: string, version: number, tenantId = 't1'): RoundEvent => ({
  id, tenantId, type: 'page.version.created', about: null,
  body: JSON.stringify({ type: 'page.version.created', data: { pageId: page, version, pageGroupId: 'pagegroup_a', brandId: 'brand_a' } }),
});
const brandCreated = (id: string, tenantId = 't1'): RoundEvent => ({ id, tenantId, type: 'brand.created', about: null, body: JSON.stringify({ type: 'brand.created', data: { brandId: 'brand_b' } }) });

function subscription(id: string, changes: { tenantId?: string; events?: string[]; ordering?: 'none' | 'page'; filter?: RoundSubscription['filter']; subscription?: Partial<DeliveryState['subscription']>; pace?: Partial<DeliveryState['pace']> } = {}): RoundSubscription {
  return {
    tenantId: changes.tenantId ?? 't1',
    events: changes.events ?? ['page.version.created', 'brand.created'],
    filter: changes.filter ?? null,
    ordering: changes.ordering ?? 'none',
    state: {
      subscription: { id, active: true, deleted: false, events: changes.events ?? ['page.version.created', 'brand.created'], disabledReason: null, nextProbeAt: null, ...changes.subscription },
      pace: { ratePerSecond: null, notBefore: null, slotAt: null, ...changes.pace },
    },
  };
}
const ids = () => {
  let n = 0;
  return () => `whdlv_${++n}`;
};
const summary = (plan: ReturnType<typeof planRound>) => plan.deliveries.map((d) => `${d.eventId}→${d.subscriptionId}:${d.first}${d.order ? `@${d.order.key}#${d.order.seq}` : ''}`);

describe('planRound', () => {
  it.each([
    ['one event to each matching subscription of its tenant', [versionOf('evt_1', 'page_a', 1)], [subscription('whsub_a'), subscription('whsub_b'), subscription('whsub_c', { tenantId: 't2' })], ['evt_1→whsub_a:send', 'evt_1→whsub_b:send']],
    ['a kind not listed', [brandCreated('evt_1')], [subscription('whsub_a', { events: ['page.version.created'] })], []],
    ['a filter: only the events about its groups', [versionOf('evt_1', 'page_a', 1), brandCreated('evt_2')], [subscription('whsub_a', { filter: { pageGroupIds: ['pagegroup_x'] } })], ['evt_2→whsub_a:send']],
    ['a subscription’s own health event never goes to it', [{ ...brandCreated('evt_1'), type: 'webhook_subscription.failing', about: 'whsub_a' }], [subscription('whsub_a', { events: ['webhook_subscription.failing'] }), subscription('whsub_b', { events: ['webhook_subscription.failing'] })], ['evt_1→whsub_b:send']],
    ['an open breaker: made held', [brandCreated('evt_1')], [subscription('whsub_a', { subscription: { nextProbeAt: at(5000) } })], ['evt_1→whsub_a:held']],
    ['a Retry-After: made held', [brandCreated('evt_1')], [subscription('whsub_a', { pace: { notBefore: at(3000) } })], ['evt_1→whsub_a:held']],
    ['a rate: claimed when its job runs (a slot to take)', [brandCreated('evt_1')], [subscription('whsub_a', { pace: { ratePerSecond: 5 } })], ['evt_1→whsub_a:claim']],
    ['an ordering subscription: the version’s place in its page', [versionOf('evt_1', 'page_a', 3), brandCreated('evt_2')], [subscription('whsub_a', { ordering: 'page' })], ['evt_1→whsub_a:send@page_a#3', 'evt_2→whsub_a:send']],
  ] as const)('%s', (_, events, subscriptions, expected) => {
    expect(summary(planRound(events, subscriptions, NOW, 2000, ids()))).toEqual(expected);
  });

  it('takes events while their deliveries fit the round’s bound, the first always, and leaves the rest', () => {
    const subs = [subscription('whsub_a'), subscription('whsub_b'), subscription('whsub_c')];
    const events = [brandCreated('evt_1'), brandCreated('evt_2'), brandCreated('evt_3')];
    expect(planRound(events, subs, NOW, 7, ids()).events.map((e) => e.id)).toEqual(['evt_1', 'evt_2']);
    expect(planRound(events, subs, NOW, 2, ids())).toMatchObject({ events: [{ id: 'evt_1' }], deliveries: [{}, {}, {}] });
  });
});

describe('the page turns of a round', () => {
  const subs = [subscription('whsub_a', { ordering: 'page' })];
  const round = planRound([versionOf('evt_1', 'page_a', 2), versionOf('evt_2', 'page_a', 3), versionOf('evt_3', 'page_b', 1)], subs, NOW, 2000, ids());

  it('asks about each page of each ordering subscription once', () => {
    expect(pagesAsked(round)).toEqual([{ tenantId: 't1', subscriptionId: 'whsub_a', orderKey: 'page_a' }, { tenantId: 't1', subscriptionId: 'whsub_a', orderKey: 'page_b' }]);
  });

  it.each([
    ['nobody holds the turn: the earliest of each page takes it', [], new Map(), ['evt_1→whsub_a:send@page_a#2', 'evt_2→whsub_a:wait@page_a#3', 'evt_3→whsub_a:send@page_b#1']],
    ['a delivery of page_a holds it: all of page_a wait', [{ subscriptionId: 'whsub_a', orderKey: 'page_a', taken: true, earliestAhead: null }], new Map(), ['evt_1→whsub_a:wait@page_a#2', 'evt_2→whsub_a:wait@page_a#3', 'evt_3→whsub_a:send@page_b#1']],
    ['an earlier version waits already', [{ subscriptionId: 'whsub_a', orderKey: 'page_a', taken: false, earliestAhead: 1 }], new Map(), ['evt_1→whsub_a:wait@page_a#2', 'evt_2→whsub_a:wait@page_a#3', 'evt_3→whsub_a:send@page_b#1']],
    ['another relay holds an earlier version of page_b', [], earliestUnrelayed([versionOf('evt_0', 'page_b', 0)]), ['evt_1→whsub_a:send@page_a#2', 'evt_2→whsub_a:wait@page_a#3', 'evt_3→whsub_a:wait@page_b#1']],
  ] as const)('%s', (_, turns, unrelayed, expected) => {
    expect(summary(takeTurns(round, turns, unrelayed))).toEqual(expected);
  });
});
