import { ApiKey } from '../../../src/domain/api-key/api-key';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../../src/domain/api-key/api-key-repository.port';
import { ApiKeySecrets } from '../../../src/domain/api-key/api-key-secrets.port';
import { Tenant } from '../../../src/domain/tenant/tenant';
import { TenantRepository } from '../../../src/domain/tenant/tenant-repository.port';

export class InMemoryTenants extends TenantRepository {
  readonly rows = new Map<string, Tenant>();
  async findById(id: string): Promise<Tenant | null> {
    return this.rows.get(id) ?? null;
  }
  async save(tenant: Tenant): Promise<void> {
    this.rows.set(tenant.id, tenant);
  }
}

export class InMemoryApiKeys extends ApiKeyRepository {
  readonly rows = new Map<string, ApiKey>();
  async findById(id: string): Promise<ApiKey | null> {
    return this.rows.get(id) ?? null;
  }
  async findActiveByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    const key = [...this.rows.values()].find((k) => k.keyHash === keyHash && k.isActive());
    return key ? { apiKeyId: key.id, tenantId: key.tenantId } : null;
  }
  async save(key: ApiKey): Promise<void> {
    this.rows.set(key.id, key);
  }
}

/** Predictable keys: `key-1`, `key-2`…, hashed as `hash(<key>)`; anything else is not a key. */
export class CountingSecrets extends ApiKeySecrets {
  private n = 0;
  generate() {
    const plainKey = `key-${++this.n}`;
    return { plainKey, keyHash: `hash(${plainKey})`, displayPrefix: plainKey.slice(0, 4) };
  }
  hash(plainKey: string): string | null {
    return plainKey.startsWith('key-') ? `hash(${plainKey})` : null;
  }
}
