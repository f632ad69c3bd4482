import { LOGGED_EVENT_TYPES } from '../../../../src/domain/events/event-catalogue';
import { checkMayReceive, kindsReceivableWith, ReceiveScopeError, scopeMissingToReceive } from '../../../../src/domain/api-key/receive-scopes';

describe('the scopes to receive event kinds (decisions.md 178)', () => {
  it.each([
    [['webhooks:write'], ['page.version.created'], 'pages:read'],
    [['webhooks:write'], ['brand.created', 'brand.updated'], 'brands:read'],
    [['webhooks:write', 'brands:read'], ['brand.updated', 'page.version.created'], 'pages:read'],
    [['webhooks:write', 'pages:write'], ['page.version.created'], null],
    [['webhooks:write'], ['webhook_subscription.failing', 'webhook.test'], null],
    [['events:read'], [...LOGGED_EVENT_TYPES], null],
    [null, [...LOGGED_EVENT_TYPES], null],
  ] as const)('%j receiving %j lacks %s', (granted, kinds, missing) => {
    expect(scopeMissingToReceive(granted, kinds)).toBe(missing);
  });

  it('lists the kinds a key may receive, null for every kind', () => {
    expect(kindsReceivableWith(['webhooks:write', 'brands:read'])).toEqual(['brand.created', 'brand.updated', 'webhook_subscription.failing', 'webhook_subscription.recovered', 'webhook_subscription.disabled', 'webhook.test']);
    expect(kindsReceivableWith(['events:read'])).toBeNull();
    expect(kindsReceivableWith(null)).toBeNull();
  });

  it('throws the error that answers 403 INSUFFICIENT_SCOPE, naming the scope', () => {
    expect(() => checkMayReceive(['webhooks:write'], ['brand.created'])).toThrow(ReceiveScopeError);
    expect(() => checkMayReceive(['webhooks:write'], ['brand.created'])).toThrow(expect.objectContaining({ code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'brands:read', grantedScopes: ['webhooks:write'] } }));
  });
});
