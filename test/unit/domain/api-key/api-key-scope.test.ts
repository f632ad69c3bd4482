import { API_KEY_SCOPES, parseScopes, scopeAllows } from '../../../../src/domain/api-key/api-key-scope';
import { InvalidValueError } from '../../../../src/domain/shared/domain-error';

describe('API key scopes', () => {
  it.each([
    [null, 'webhooks:write', true],
    [['brands:read'], 'brands:read', true],
    [['brands:read'], 'brands:write', false],
    [['brands:write'], 'brands:read', true],
    [['brands:write'], 'pages:read', false],
    [['pages:write'], 'page_groups:read', false],
    [['events:read', 'webhooks:write'], 'webhooks:read', true],
  ] as const)('a key with %j may %s: %s', (granted, needed, allowed) => {
    expect(scopeAllows(granted === null ? null : [...granted], needed)).toBe(allowed);
  });

  it('keeps known scopes once each, in the catalogue order, and refuses unknown or none', () => {
    expect(parseScopes(['events:read', 'brands:read', 'events:read'])).toEqual(['brands:read', 'events:read']);
    expect(() => parseScopes(['brands:read', 'brands:*'])).toThrow(InvalidValueError);
    expect(() => parseScopes([])).toThrow(/at least one scope/);
    expect(new Set(API_KEY_SCOPES.map((scope) => scope.split(':')[1]))).toEqual(new Set(['read', 'write']));
  });
});
