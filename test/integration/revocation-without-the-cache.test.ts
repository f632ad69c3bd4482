import { CreateApiKey } from '../../src/application/api-key/create-api-key.use-case';
import { RevocationNotCachedError, RevokeApiKey } from '../../src/application/api-key/revoke-api-key.use-case';
import { CreateTenant } from '../../src/application/tenant/create-tenant.use-case';
import { openCliSession } from '../../src/composition/cli/cli-session';
import { loadConfig } from '../../src/infrastructure/config/app-config';
import { registerKeyCacheHolder } from '../../src/infrastructure/persistence/api-keys/key-cache-holders';
import { openTestOrm, sqlIn } from '../support/database';
import { isolatedDatabase } from '../support/isolated-database';
import { freePort } from '../support/ports';
import { testLogger } from '../support/silent-logger';

// Issue 41: the operator's CLI on a machine that reaches no Redis, while API processes keep their
// key cache in one. The CLI session as it is composed (its local-Redis probe pointed at a port
// where nothing listens, as on such a machine), an API process's registration as a cache holder,
// and a database of its own (other tests' API processes register in the shared one).
describe('revoking a key from a process that reaches no key cache', () => {
  it('is complete when no API process holds a cache, and otherwise fails saying how to finish, the key revoked in the database', async () => {
    const db = await isolatedDatabase();
    const orm = await openTestOrm(db.url);
    const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY });
    const session = await openCliSession(config, testLogger(), undefined, { migrate: false, localRedis: { host: '127.0.0.1', port: await freePort() } });
    const revokedAt = async (apiKeyId: string) => (await sqlIn<{ revoked_at: string | null }>(orm, 'SELECT revoked_at FROM api_keys WHERE id = ?', [apiKeyId]))[0].revoked_at;
    try {
      const { tenantId } = await session.within(() => session.context.get(CreateTenant).execute({ name: 'No cache here' }));
      const newKey = () => session.within(() => session.context.get(CreateApiKey).execute({ tenantId }));
      const revoke = (apiKeyId: string) => session.within(() => session.context.get(RevokeApiKey).execute({ apiKeyId }));

      // No API process holds a cache: nothing can hold a copy, the revocation is complete.
      const first = await newKey();
      await expect(revoke(first.apiKeyId)).resolves.toEqual({ apiKeyId: first.apiKeyId, revokedAt: expect.any(String) });

      // An API process with a key cache in Redis is running.
      const holder = await registerKeyCacheHolder(orm, testLogger());
      const second = await newKey();
      const refused = revoke(second.apiKeyId);
      await expect(refused).rejects.toThrow(RevocationNotCachedError);
      await expect(refused).rejects.toThrow(/run the command again where it reaches their Redis \(REDIS_URL\)/);
      // Revoked in the database all the same: a key that PostgreSQL answers for is refused.
      expect(await revokedAt(second.apiKeyId)).not.toBeNull();

      // Once it has stopped, a revocation is complete again.
      await holder.stop();
      const third = await newKey();
      await expect(revoke(third.apiKeyId)).resolves.toMatchObject({ apiKeyId: third.apiKeyId });
    } finally {
      await session.close();
      await orm.close(true);
      await db.drop();
    }
  });
});
