import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ApiKey } from '../../../domain/api-key/api-key';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../../domain/api-key/api-key.repository';
import { sqlRows } from '../sql-statement';

@Injectable()
export class MikroOrmApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findById(id: string): Promise<ApiKey | null> {
    return this.em.findOne(ApiKey, { id });
  }

  async findActiveByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    // The hot path of every request: one unique-index probe, no entity, no identity map.
    const rows = await sqlRows<{ id: string; tenant_id: string }>(
      this.em,
      'SELECT id, tenant_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    return rows.length === 0 ? null : { apiKeyId: rows[0].id, tenantId: rows[0].tenant_id };
  }

  async save(key: ApiKey): Promise<void> {
    await this.em.persist(key).flush();
  }
}
