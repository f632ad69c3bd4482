import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from '../../domain/api-key/api-key-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { foundOrFail } from '../shared/found-or-fail';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { ApiKeyCache } from './api-key-cache.port';

/**
 * The revocation is in PostgreSQL, but the key cache of the API processes (Redis) could not be
 * told from here: cached copies may let the key in for a while. Says how to finish the job.
 */
export class RevocationNotCachedError extends Error {
  constructor(apiKeyId: string) {
    super(
      `api key ${apiKeyId} is revoked in the database, but the API processes' key cache (Redis) could not be reached from here: ` +
        `they may still accept the key for up to 90 s. To end it at once, run the command again where it reaches their Redis (REDIS_URL); ` +
        `revoking again keeps the first revocation time`,
    );
  }
}

@Injectable()
export class RevokeApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly cache: ApiKeyCache,
  ) {}

  /**
   * Revokes the key (again, if it was: the first time is kept) and then marks it revoked in the
   * key cache, after the commit: a request that read the key as active before the commit cannot
   * cache it afterwards (ApiKeyCache), and any copy cached before is overwritten.
   */
  async execute(input: { apiKeyId: string }): Promise<{ apiKeyId: string; revokedAt: string }> {
    const { keyHash, ...revoked } = await this.unitOfWork.run(async () => {
      const key = await foundOrFail('api key', 'apikey', input.apiKeyId, () => this.keys.findById(input.apiKeyId, { forUpdate: true }));
      key.revoke(this.clock.now());
      await this.keys.save(key);
      return { apiKeyId: key.id, revokedAt: key.revokedAt!.toISOString(), keyHash: key.keyHash };
    });
    if (!(await this.cache.markRevoked(keyHash))) throw new RevocationNotCachedError(revoked.apiKeyId);
    return revoked;
  }
}
