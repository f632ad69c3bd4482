import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ApiKey } from '../../../domain/api-key/api-key';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../../domain/api-key/api-key-repository.port';
import { requireTransaction, sqlRows } from '../connection/sql-statement';

@Injectable()
export class MikroOrmApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findById(id: string, options: { forUpdate?: boolean } = {}): Promise<ApiKey | null> {
    if (options.forUpdate) requireTransaction(this.em, 'an api key read for update');
    return this.em.findOne(ApiKey, { id }, options.forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
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
