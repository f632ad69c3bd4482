import { EntityManager, LockMode, QueryOrder } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ApiKey } from '../../../domain/api-key/api-key';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../../domain/api-key/api-key-repository.port';
import { requireTransaction } from '../connection/sql-statement';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';
import { ApiKeyEntity, type ApiKeyRow } from '../entities/api-key.entity';

// The hot path of every request the key cache does not answer: one unique-index probe, no aggregate.
const FIND_ACTIVE = typedStatement<{ keyHash: string }>()((arg) =>
  schema.selectFrom('api_keys').select(['id', 'tenant_id', 'scopes']).where('key_hash', '=', arg('keyHash')).where('revoked_at', 'is', null),
);
// The key's hash is bound as a parameter: the ORM's own insert writes values into the
// statement's text (MikroORM 7, mikro-orm#8001), which spans and pg_stat_activity show.
const INSERT = typedStatement<{ id: string; tenantId: string; keyHash: string; displayPrefix: string; scopes: string[] | null; createdAt: Date; revokedAt: Date | null }>()((arg) =>
  schema.insertInto('api_keys').values({
    id: arg('id'), tenant_id: arg('tenantId'), key_hash: arg('keyHash'), display_prefix: arg('displayPrefix'), scopes: arg('scopes') as never,
    created_at: arg('createdAt'), revoked_at: arg('revokedAt'),
  }),
);
const keyOf = (row: ApiKeyRow): ApiKey =>
  ApiKey.restore({
    id: row.id,
    tenantId: row.tenant.id,
    keyHash: row.keyHash,
    displayPrefix: row.displayPrefix,
    scopes: row.scopes ?? null,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt ?? null,
  });

/**
 * API keys. The lookup by hash is on the path of every request the key cache does not answer: a
 * typed statement, one unique-index probe and no entity. Issuing a key binds its hash (above).
 * Listing and revoking keys are cold (the platform's CLI): the ORM's own calls (decisions.md 185),
 * with the identity map left alone, since a repository hands out aggregates, never managed entities.
 */
@Injectable()
export class SqlApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(id: string, options: { forUpdate?: boolean } = {}): Promise<ApiKey | null> {
    if (options.forUpdate) requireTransaction(this.em, 'an api key read for update');
    const row = await this.em.findOne(ApiKeyEntity, { id }, { disableIdentityMap: true, ...(options.forUpdate && { lockMode: LockMode.PESSIMISTIC_WRITE }) });
    return row ? keyOf(row) : null;
  }

  async findActiveByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    const [row] = await FIND_ACTIVE.rows(this.em, { keyHash });
    return row ? { apiKeyId: row.id, tenantId: row.tenant_id, scopes: row.scopes } : null;
  }

  async listByTenant(tenantId: string): Promise<ApiKey[]> {
    return (await this.em.find(ApiKeyEntity, { tenant: tenantId }, { orderBy: { id: QueryOrder.DESC }, disableIdentityMap: true })).map(keyOf);
  }

  async add(key: ApiKey): Promise<void> {
    await INSERT.count(this.em, {
      id: key.id, tenantId: key.tenantId, keyHash: key.keyHash, displayPrefix: key.displayPrefix,
      scopes: key.scopes && [...key.scopes], createdAt: key.createdAt, revokedAt: key.revokedAt,
    });
  }

  async save(key: ApiKey): Promise<void> {
    await this.em.nativeUpdate(ApiKeyEntity, { id: key.id }, { revokedAt: key.revokedAt });
  }
}
