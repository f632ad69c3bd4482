import { CreateWebhookSubscription } from '../../../../src/application/webhook/subscriptions/create-webhook-subscription.use-case';
import { DeleteWebhookSubscription } from '../../../../src/application/webhook/subscriptions/delete-webhook-subscription.use-case';
import { RotateSigningSecret } from '../../../../src/application/webhook/subscriptions/rotate-signing-secret.use-case';
import { UpdateWebhookSubscription } from '../../../../src/application/webhook/subscriptions/update-webhook-subscription.use-case';
import { InvalidValueError, NotFoundError } from '../../../../src/domain/shared/domain-error';
import { SubscriptionLimitError } from '../../../../src/domain/webhook/webhook.errors';
import { WebhookSubscription } from '../../../../src/domain/webhook/webhook-subscription';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { CountingSigningSecrets, FixedWebhookLimits, HostTargetPolicy, InMemorySubscriptions, KnownFilterTargets } from '../../../support/fakes/in-memory-webhooks';
import { aSubscriptionRequest } from '../../../support/builders/subscriptions';

const TENANT = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9';
const OTHER = 'tenant_01jdq8w9k1a2b3c4d5e6f7g8ha';
const T0 = new Date('2026-11-22T12:00:00.000Z');

function setup() {
  const clock = new FixedClock(T0);
  const subscriptions = new InMemorySubscriptions();
  const secrets = new CountingSigningSecrets();
  const targets = new HostTargetPolicy();
  const unitOfWork = new ImmediateUnitOfWork();
  const limits = new FixedWebhookLimits(2);
  const filterTargets = new KnownFilterTargets();
  return {
    clock, subscriptions, unitOfWork, filterTargets,
    create: new CreateWebhookSubscription(subscriptions, secrets, targets, clock, limits, unitOfWork, filterTargets),
    update: new UpdateWebhookSubscription(subscriptions, targets, clock, unitOfWork, filterTargets),
    remove: new DeleteWebhookSubscription(subscriptions, clock, unitOfWork),
    rotate: new RotateSigningSecret(subscriptions, secrets, clock, unitOfWork),
  };
}

const GROUP = 'page_01jdq8w9k1a2b3c4d5e6f7g8h9';
const OTHER_GROUP = 'page_01jdq8w9k1a2b3c4d5e6f7g8ha';
const BRAND = 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9';

describe('a subscription filter', () => {
  it("takes the tenant's own page groups and brands, and refuses another tenant's id with a 404 naming its field, adding nothing", async () => {
    const { create, update, subscriptions, filterTargets } = setup();
    filterTargets.pageGroups.set(TENANT, new Set([GROUP]));
    filterTargets.pageGroups.set(OTHER, new Set([OTHER_GROUP]));
    filterTargets.brands.set(TENANT, new Set([BRAND]));
    const view = await create.execute({ ...aSubscriptionRequest(TENANT), filter: { pageGroupIds: [GROUP], brandIds: [BRAND] } });
    expect(view.filter).toEqual({ pageGroupIds: [GROUP], brandIds: [BRAND] });

    const refused = create.execute({ ...aSubscriptionRequest(TENANT), filter: { pageGroupIds: [GROUP, OTHER_GROUP] } });
    await expect(refused).rejects.toThrow(NotFoundError);
    await expect(refused).rejects.toMatchObject({ details: { field: 'filter.pageGroupIds[1]' } });
    expect(subscriptions.rows.size).toBe(1);

    await expect(update.execute({ grant: null, tenantId: TENANT, subscriptionId: view.id, changes: { filter: { brandIds: ['brand_01jdq8w9k1a2b3c4d5e6f7g8hb'] } } })).rejects.toThrow(NotFoundError);
    expect((await update.execute({ grant: null, tenantId: TENANT, subscriptionId: view.id, changes: { filter: null } })).filter).toBeNull();
  });

  it('refuses a malformed filter with a 400 naming the field', async () => {
    const { create } = setup();
    for (const [filter, field] of [
      [{ pageGroupIds: [] }, 'filter.pageGroupIds'],
      [{ pageGroupIds: [BRAND] }, 'filter.pageGroupIds[0]'],
      [{ brandIds: [BRAND, BRAND] }, 'filter.brandIds[1]'],
      [{ pageGroupIds: Array.from({ length: 101 }, () => GROUP) }, 'filter.pageGroupIds'],
      [{ templateIds: [GROUP] }, 'filter.templateIds'],
    ] as const) {
      await expect(create.execute({ ...aSubscriptionRequest(TENANT), filter: filter as never })).rejects.toMatchObject({ details: { field } });
    }
    // Well formed, but not one of the tenant's brands: a 404, not a 400.
    await expect(create.execute({ ...aSubscriptionRequest(TENANT), filter: { brandIds: [BRAND] } })).rejects.toThrow(NotFoundError);
  });
});

describe('CreateWebhookSubscription', () => {
  it('answers the new subscription with its secret once, in a unit of work', async () => {
    const { create, subscriptions, unitOfWork } = setup();
    const view = await create.execute(aSubscriptionRequest(TENANT));
    expect(view).toEqual({
      id: expect.stringMatching(/^whsub_/), url: 'https://hooks.example/landing', events: ['page.version.created'], active: true,
      rateLimitPerSecond: null, filter: null, ordering: 'none', createdAt: T0.toISOString(), updatedAt: T0.toISOString(), signingSecret: 'whsec_test_1',
      health: { state: 'healthy', consecutiveFailures: 0, lastSuccessAt: null, lastFailureAt: null, disabledReason: null, disableAt: null, breaker: 'closed', nextProbeAt: null },
    });
    expect(subscriptions.rows.get(view.id)!.signingSecret).toBe('whsec_test_1');
    expect(unitOfWork.runs).toBe(1);
  });

  it('refuses a forbidden target before writing anything', async () => {
    const { create, subscriptions } = setup();
    await expect(create.execute(aSubscriptionRequest(TENANT, { url: 'https://forbidden.example/x' }))).rejects.toThrow(InvalidValueError);
    expect(subscriptions.rows.size).toBe(0);
  });

  it('stops at the tenant limit, counting each tenant on its own', async () => {
    const { create, subscriptions } = setup();
    await create.execute(aSubscriptionRequest(TENANT));
    await create.execute(aSubscriptionRequest(TENANT));
    await expect(create.execute(aSubscriptionRequest(TENANT))).rejects.toThrow(SubscriptionLimitError);
    await create.execute(aSubscriptionRequest(OTHER));
    expect(subscriptions.rows.size).toBe(3);
  });
});

describe('UpdateWebhookSubscription', () => {
  it('changes what the PATCH names under the row lock and never the secret', async () => {
    const { create, update, subscriptions, clock } = setup();
    const { id } = await create.execute(aSubscriptionRequest(TENANT));
    clock.advance(1000);
    const view = await update.execute({ grant: null, tenantId: TENANT, subscriptionId: id, changes: { active: false, rateLimitPerSecond: 5 } });
    expect(view).toMatchObject({ active: false, rateLimitPerSecond: 5, url: 'https://hooks.example/landing', updatedAt: '2026-11-22T12:00:01.000Z' });
    expect(view).not.toHaveProperty('signingSecret');
    expect(subscriptions.locked).toEqual([id]);
    expect(subscriptions.rows.get(id)).toMatchObject({ active: false, signingSecret: 'whsec_test_1' });
  });

  it('refuses a new URL the target policy forbids and keeps the old one', async () => {
    const { create, update, subscriptions } = setup();
    const { id } = await create.execute(aSubscriptionRequest(TENANT));
    await expect(update.execute({ grant: null, tenantId: TENANT, subscriptionId: id, changes: { url: 'https://forbidden.example/y' } })).rejects.toThrow(InvalidValueError);
    expect(subscriptions.rows.get(id)!.url).toBe('https://hooks.example/landing');
  });

  it("answers not found for another tenant's subscription", async () => {
    const { create, update } = setup();
    const { id } = await create.execute(aSubscriptionRequest(OTHER));
    await expect(update.execute({ grant: null, tenantId: TENANT, subscriptionId: id, changes: { active: false } })).rejects.toThrow(NotFoundError);
  });


  it('turning a subscription the platform turned off back on clears its health', async () => {
    const { create, update, subscriptions } = setup();
    const { id } = await create.execute(aSubscriptionRequest(TENANT));
    const stored = subscriptions.rows.get(id)!;
    const gone = { consecutiveFailures: 1, lastSuccessAt: null, lastFailureAt: T0, disableAt: null, disabledReason: 'gone' as const, nextProbeAt: null, probesMade: 0 };
    subscriptions.rows.set(id, WebhookSubscription.restore({ ...stored, active: false, health: gone }));
    expect((await update.execute({ grant: null, tenantId: TENANT, subscriptionId: id, changes: { url: 'https://hooks.example/other' } })).health).toMatchObject({ state: 'disabled', disabledReason: 'gone' });
    const view = await update.execute({ grant: null, tenantId: TENANT, subscriptionId: id, changes: { active: true } });
    expect(view.health).toEqual({ state: 'healthy', consecutiveFailures: 0, lastSuccessAt: null, lastFailureAt: T0.toISOString(), disabledReason: null, disableAt: null, breaker: 'closed', nextProbeAt: null });
  });
});

describe('DeleteWebhookSubscription', () => {
  it('deletes once: the subscription is gone and a second delete is not found', async () => {
    const { create, remove, subscriptions } = setup();
    const { id } = await create.execute(aSubscriptionRequest(TENANT));
    await remove.execute({ tenantId: TENANT, subscriptionId: id });
    expect(subscriptions.rows.get(id)).toMatchObject({ active: false, deletedAt: T0 });
    await expect(remove.execute({ tenantId: TENANT, subscriptionId: id })).rejects.toThrow(NotFoundError);
  });
});

describe('RotateSigningSecret', () => {
  it('answers the new secret and keeps the old one valid for the overlap', async () => {
    const { create, rotate, subscriptions } = setup();
    const { id } = await create.execute(aSubscriptionRequest(TENANT));
    const view = await rotate.execute({ tenantId: TENANT, subscriptionId: id, expiresInSeconds: 60 });
    expect(view.signingSecret).toBe('whsec_test_2');
    expect(subscriptions.rows.get(id)).toMatchObject({ signingSecret: 'whsec_test_2', previousSecrets: [{ secret: 'whsec_test_1', expiresAt: new Date(T0.getTime() + 60_000) }] });
    expect(subscriptions.locked).toEqual([id]);
  });

  it('with 0, ends every old secret at once', async () => {
    const { create, rotate, subscriptions } = setup();
    const { id } = await create.execute(aSubscriptionRequest(TENANT));
    await rotate.execute({ tenantId: TENANT, subscriptionId: id });
    await rotate.execute({ tenantId: TENANT, subscriptionId: id, expiresInSeconds: 0 });
    expect(subscriptions.rows.get(id)).toMatchObject({ signingSecret: 'whsec_test_3', previousSecrets: [] });
  });

  it('refuses an overlap past the maximum, naming the field, and changes nothing', async () => {
    const { create, rotate, subscriptions } = setup();
    const { id } = await create.execute(aSubscriptionRequest(TENANT));
    await expect(rotate.execute({ tenantId: TENANT, subscriptionId: id, expiresInSeconds: 604_801 })).rejects.toMatchObject({ details: { field: 'expiresInSeconds' } });
    expect(subscriptions.rows.get(id)!.signingSecret).toBe('whsec_test_1');
  });
});
