import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from '../../domain/api-key/api-key.repository';
import { Clock } from '../../domain/shared/clock';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';

@Injectable()
export class RevokeApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { apiKeyId: string }): Promise<{ apiKeyId: string; revokedAt: string }> {
    const key = isTypeId(input.apiKeyId, 'apikey') ? await this.keys.findById(input.apiKeyId) : null;
    if (!key) throw new NotFoundError('api key', input.apiKeyId);
    key.revoke(this.clock.now());
    await this.keys.save(key);
    return { apiKeyId: key.id, revokedAt: key.revokedAt!.toISOString() };
  }
}
