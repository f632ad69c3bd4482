import { ApiKey } from '../../../../src/domain/api-key/api-key';
import { Tenant } from '../../../../src/domain/tenant/tenant';
import { InvalidValueError } from '../../../../src/domain/shared/domain-error';

describe('ApiKey', () => {
  it('is active until revoked, and a second revocation keeps the first time', () => {
    const key = ApiKey.issue('tenant_01jdq8w9k1a2b3c4d5e6f7g8h9', 'a'.repeat(64), 'lp_abcdefgh', new Date('2026-01-01T00:00:00Z'));
    expect(key.id).toMatch(/^apikey_/);
    expect(key.isActive()).toBe(true);
    key.revoke(new Date('2026-01-02T00:00:00Z'));
    key.revoke(new Date('2026-01-03T00:00:00Z'));
    expect(key.isActive()).toBe(false);
    expect(key.revokedAt).toEqual(new Date('2026-01-02T00:00:00Z'));
  });
});

describe('Tenant', () => {
  it('trims its name and refuses an empty one', () => {
    expect(Tenant.create('  Acme ', new Date()).name).toBe('Acme');
    expect(() => Tenant.create('   ', new Date())).toThrow(InvalidValueError);
  });
});
