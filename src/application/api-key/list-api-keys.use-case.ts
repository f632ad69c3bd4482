import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from '../../domain/api-key/api-key-repository.port';
import { ApiKeyScope } from '../../domain/api-key/api-key-scope';
import { TenantRepository } from '../../domain/tenant/tenant-repository.port';
import { foundOrFail } from '../shared/found-or-fail';

/** A key as the operator sees it: never its hash, only the prefix people tell keys apart by. */
export interface ApiKeySummary {
  apiKeyId: string;
  displayPrefix: string;
  /** Null: full access. */
  scopes: ApiKeyScope[] | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A tenant's keys, newest first, for the operator's CLI (`api-key:list`). */
@Injectable()
export class ListApiKeys {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly keys: ApiKeyRepository,
  ) {}

  async execute(input: { tenantId: string }): Promise<{ apiKeys: ApiKeySummary[] }> {
    await foundOrFail('tenant', 'tenant', input.tenantId, () => this.tenants.findById(input.tenantId));
    const keys = await this.keys.listByTenant(input.tenantId);
    return {
      apiKeys: keys.map((key) => ({
        apiKeyId: key.id,
        displayPrefix: key.displayPrefix,
        scopes: key.scopes === null ? null : [...key.scopes],
        createdAt: key.createdAt.toISOString(),
        revokedAt: key.revokedAt?.toISOString() ?? null,
      })),
    };
  }
}
