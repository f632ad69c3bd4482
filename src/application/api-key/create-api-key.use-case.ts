import { Injectable } from '@nestjs/common';
import { ApiKey } from '../../domain/api-key/api-key';
import { ApiKeyRepository } from '../../domain/api-key/api-key-repository.port';
import { ApiKeyScope, parseScopes } from '../../domain/api-key/api-key-scope';
import { ApiKeySecrets } from '../../domain/api-key/api-key-secrets.port';
import { Clock } from '../../domain/shared/clock.port';
import { TenantRepository } from '../../domain/tenant/tenant-repository.port';
import { foundOrFail } from '../shared/found-or-fail';
import { UnitOfWork } from '../shared/unit-of-work.port';

@Injectable()
export class CreateApiKey {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly keys: ApiKeyRepository,
    private readonly secrets: ApiKeySecrets,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Returns the plain key: the only time it exists outside the caller's hands. Without `scopes`
   * the key has full access; with them, only what they name (api-key-scope.ts).
   */
  execute(input: { tenantId: string; scopes?: readonly string[] }): Promise<{ apiKeyId: string; apiKey: string; displayPrefix: string; scopes: ApiKeyScope[] | null }> {
    const scopes = input.scopes === undefined ? null : parseScopes(input.scopes);
    return this.unitOfWork.run(async () => {
      const tenant = await foundOrFail('tenant', 'tenant', input.tenantId, () => this.tenants.findById(input.tenantId));
      const { plainKey, keyHash, displayPrefix } = this.secrets.generate();
      const key = ApiKey.issue(tenant.id, keyHash, displayPrefix, this.clock.now(), scopes);
      await this.keys.add(key);
      return { apiKeyId: key.id, apiKey: plainKey, displayPrefix, scopes };
    });
  }
}
