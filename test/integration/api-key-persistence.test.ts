import { MikroORM } from '@mikro-orm/postgresql';
import { SqlApiKeyRepository } from '../../src/infrastructure/persistence/repositories/sql-api-key.repository';
import { SqlTenantRepository } from '../../src/infrastructure/persistence/repositories/sql-tenant.repository';
import { Sha256ApiKeySecrets } from '../../src/infrastructure/crypto/sha256-api-key-secrets';
import { ApiKey } from '../../src/domain/api-key/api-key';
import { Tenant } from '../../src/domain/tenant/tenant';
import { openTestOrm, sqlIn } from '../support/database';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm.close(true));

describe('API keys at rest', () => {
  it('stores only the SHA-256 hash and a display prefix, and finds active keys by hash', async () => {
    const tenant = Tenant.create('Keys', new Date());
    await new SqlTenantRepository(orm.em.fork()).add(tenant);
    const secrets = new Sha256ApiKeySecrets();
    const { plainKey, keyHash, displayPrefix } = secrets.generate();
    expect(plainKey).toMatch(/^lp_[A-Za-z0-9_-]{43}$/);
    expect(keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(plainKey.startsWith(displayPrefix)).toBe(true);
    const key = ApiKey.issue(tenant.id, keyHash, displayPrefix, new Date());
    await new SqlApiKeyRepository(orm.em.fork()).add(key);

    const raw = await sqlIn(orm, 'SELECT * FROM api_keys WHERE id = ?', [key.id]);
    expect(JSON.stringify(raw)).not.toContain(plainKey);

    const repo = new SqlApiKeyRepository(orm.em.fork());
    expect(await repo.findActiveByHash(secrets.hash(plainKey)!)).toEqual({ apiKeyId: key.id, tenantId: tenant.id, scopes: null });
    const loaded = (await repo.findById(key.id))!;
    loaded.revoke(new Date());
    await repo.save(loaded);
    expect(await new SqlApiKeyRepository(orm.em.fork()).findActiveByHash(keyHash)).toBeNull();
  });

  it('makes a different key every time', () => {
    const secrets = new Sha256ApiKeySecrets();
    const keys = new Set(Array.from({ length: 1000 }, () => secrets.generate().plainKey));
    expect(keys.size).toBe(1000);
    expect(secrets.hash('lp_short')).toBeNull();
  });
});
