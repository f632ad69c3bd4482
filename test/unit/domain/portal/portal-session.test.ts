import { parseCapabilities, scopesMissing, scopesOf } from '../../../../src/domain/portal/portal-capability';
import { checkedOrigin, PortalSession } from '../../../../src/domain/portal/portal-session';
import { InvalidValueError } from '../../../../src/domain/shared/domain-error';

const T0 = new Date('2026-12-06T10:00:00.000Z');
const open = (overrides: Partial<Parameters<typeof PortalSession.open>[0]> = {}) =>
  PortalSession.open({ tenantId: 'tenant_x', capabilities: ['deliveries:read'], expiresInSeconds: 3600, linkTokenHash: 'hash(link-1)', createdByApiKeyId: 'apikey_x', now: T0, ...overrides });
const field = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof InvalidValueError ? (error.details?.field ?? error.message) : String(error);
  }
  return 'no error';
};

describe('portal capabilities', () => {
  it('always include reading deliveries, in the catalogue order, without repeats', () => {
    expect(parseCapabilities(['secrets:rotate', 'deliveries:retry', 'secrets:rotate'])).toEqual(['deliveries:read', 'deliveries:retry', 'secrets:rotate']);
    expect(parseCapabilities([])).toEqual(['deliveries:read']);
  });

  it('refuse an unknown name', () => {
    expect(() => parseCapabilities(['deliveries:read', 'admin'])).toThrow(InvalidValueError);
  });

  it('stand for API key scopes, which a key must hold to open the session', () => {
    expect(scopesOf(['deliveries:read'])).toEqual(['webhooks:read', 'events:read']);
    expect(scopesOf(['deliveries:read', 'events:test']).sort()).toEqual(['events:read', 'webhooks:read', 'webhooks:write']);
    expect(scopesMissing(null, ['deliveries:read', 'subscriptions:manage'])).toEqual([]);
    expect(scopesMissing(['webhooks:write'], ['deliveries:read', 'secrets:rotate'])).toEqual(['events:read']);
    expect(scopesMissing(['webhooks:read', 'events:read'], ['deliveries:read', 'deliveries:retry'])).toEqual(['webhooks:write']);
  });
});

describe('a portal session', () => {
  it('lives from five minutes to seven days', () => {
    expect(open({ expiresInSeconds: 300 }).expiresAt).toEqual(new Date(T0.getTime() + 300_000));
    expect(open({ expiresInSeconds: 604_800 }).expiresAt).toEqual(new Date(T0.getTime() + 604_800_000));
    for (const seconds of [299, 604_801, 3600.5, Number.NaN]) expect(() => open({ expiresInSeconds: seconds })).toThrow(InvalidValueError);
  });

  it('opens its link once, for a session token, while it is live', () => {
    const session = open();
    expect(session.exchange('hash(session-2)', T0)).toBeNull();
    expect(session.sessionTokenHash).toBe('hash(session-2)');
    expect(session.linkUsedAt).toEqual(T0);
    expect(session.exchange('hash(session-3)', T0)).toBe('used');
    expect(session.sessionTokenHash).toBe('hash(session-2)');
  });

  it('opens nothing once expired or revoked, revocation first', () => {
    const late = open({ expiresInSeconds: 300 });
    expect(late.exchange('hash(s)', new Date(T0.getTime() + 300_000))).toBe('expired');
    const revoked = open();
    revoked.revoke(T0);
    revoked.revoke(new Date(T0.getTime() + 5_000));
    expect(revoked.revokedAt).toEqual(T0);
    expect(revoked.refusal(T0)).toBe('revoked');
    expect(revoked.exchange('hash(s)', T0)).toBe('revoked');
    expect(open().refusal(new Date(T0.getTime() + 3_599_999))).toBeNull();
  });

  it('reaches every subscription, or those it is narrowed to', () => {
    expect(open().covers('whsub_a')).toBe(true);
    const narrowed = open({ subscriptionIds: ['whsub_a', 'whsub_a', 'whsub_b'] });
    expect(narrowed.subscriptionIds).toEqual(['whsub_a', 'whsub_b']);
    expect(narrowed.covers('whsub_b')).toBe(true);
    expect(narrowed.covers('whsub_c')).toBe(false);
    expect(() => open({ subscriptionIds: [] })).toThrow(InvalidValueError);
  });

  it('may be embedded only by the origins it names, each a plain https origin (http on loopback)', () => {
    expect(open().allowedOrigins).toBeNull();
    expect(open({ allowedOrigins: ['https://app.example.com', 'http://127.0.0.1:5173'] }).allowedOrigins).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
    expect(checkedOrigin('https://App.Example.com')).toBe('https://app.example.com');
    for (const bad of ['http://app.example.com', 'https://app.example.com/path', 'https://u:p@app.example.com', 'javascript:alert(1)', '*', 'https://a.com?x=1']) {
      expect(field(() => checkedOrigin(bad))).toBe('allowedOrigins');
    }
    expect(() => open({ allowedOrigins: [] })).toThrow(InvalidValueError);
  });
});
