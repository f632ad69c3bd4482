import { ImmediateUnitOfWork } from '../../../support/fakes/immediate-unit-of-work';
import { AuthenticateApiKey } from '../../../../src/application/api-key/authenticate-api-key.use-case';
import { CreateApiKey } from '../../../../src/application/api-key/create-api-key.use-case';
import { RevokeApiKey } from '../../../../src/application/api-key/revoke-api-key.use-case';
import { CreateTenant } from '../../../../src/application/tenant/create-tenant.use-case';
import { NotFoundError } from '../../../../src/domain/shared/domain-error';
import { FixedClock } from '../../../support/fakes/fixed-clock';
import { CountingSecrets, InMemoryApiKeys, InMemoryTenants } from '../../../support/fakes/in-memory-keys';

function setup() {
  const tenants = new InMemoryTenants();
  const keys = new InMemoryApiKeys();
  const secrets = new CountingSecrets();
  const clock = new FixedClock(new Date('2026-11-22T12:00:00.000Z'));
  return {
    keys,
    createTenant: new CreateTenant(tenants, clock, new ImmediateUnitOfWork()),
    createKey: new CreateApiKey(tenants, keys, secrets, clock, new ImmediateUnitOfWork()),
    revoke: new RevokeApiKey(keys, clock, new ImmediateUnitOfWork()),
    authenticate: new AuthenticateApiKey(keys, secrets),
  };
}

describe('api key use cases', () => {
  it('issues a key that authenticates as its tenant, storing only its hash', async () => {
    const { createTenant, createKey, authenticate, keys } = setup();
    const { tenantId } = await createTenant.execute({ name: 'Acme' });
    const { apiKey, apiKeyId } = await createKey.execute({ tenantId });
    expect(await authenticate.execute(apiKey)).toEqual({ apiKeyId, tenantId });
    expect(keys.rows.get(apiKeyId)!.keyHash).toBe(`hash(${apiKey})`);
    expect(JSON.stringify([...keys.rows.values()])).not.toContain(`"${apiKey}"`);
  });

  it('refuses a revoked key at once, and missing, malformed or unknown ones alike', async () => {
    const { createTenant, createKey, revoke, authenticate } = setup();
    const { tenantId } = await createTenant.execute({ name: 'Acme' });
    const { apiKey, apiKeyId } = await createKey.execute({ tenantId });
    const revoked = await revoke.execute({ apiKeyId });
    expect(revoked).toEqual({ apiKeyId, revokedAt: '2026-11-22T12:00:00.000Z' });
    for (const presented of [apiKey, undefined, '', 'not a key', 'key-999']) {
      expect(await authenticate.execute(presented)).toBeNull();
    }
  });

  it('will not issue a key for an unknown tenant, nor revoke an unknown key', async () => {
    const { createKey, revoke } = setup();
    await expect(createKey.execute({ tenantId: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9' })).rejects.toThrow(NotFoundError);
    await expect(createKey.execute({ tenantId: 'garbage' })).rejects.toThrow(NotFoundError);
    await expect(revoke.execute({ apiKeyId: 'apikey_01jdq8w9k1a2b3c4d5e6f7g8h9' })).rejects.toThrow(NotFoundError);
  });
});
