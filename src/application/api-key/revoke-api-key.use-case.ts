import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from '../../domain/api-key/api-key-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { foundOrFail } from '../shared/found-or-fail';
import { UnitOfWork } from '../shared/unit-of-work.port';

@Injectable()
export class RevokeApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { apiKeyId: string }): Promise<{ apiKeyId: string; revokedAt: string }> {
    return this.unitOfWork.run(async () => {
      const key = await foundOrFail('api key', 'apikey', input.apiKeyId, () => this.keys.findById(input.apiKeyId, { forUpdate: true }));
      key.revoke(this.clock.now());
      await this.keys.save(key);
      return { apiKeyId: key.id, revokedAt: key.revokedAt!.toISOString() };
    });
  }
}
