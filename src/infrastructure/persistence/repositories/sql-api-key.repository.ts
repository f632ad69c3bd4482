import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ApiKey } from '../../../domain/api-key/api-key';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../../domain/api-key/api-key-repository.port';
import { ApiKeyScope } from '../../../domain/api-key/api-key-scope';
import { requireTransaction, sqlRows } from '../connection/sql-statement';

interface ApiKeyRow {
  id: string;
  tenant_id: string;
  key_hash: string;
  display_prefix: string;
  /** Null: full access (every key issued before scopes existed). */
  scopes: ApiKeyScope[] | null;
  // Timestamps come as text on this connection (no type parser): made Dates here.
  created_at: string;
  revoked_at: string | null;
}

const COLUMNS = 'id, tenant_id, key_hash, display_prefix, scopes, created_at, revoked_at';
const SELECT_KEY = `SELECT ${COLUMNS} FROM api_keys WHERE id = $1`;
const SELECT_KEY_FOR_UPDATE = `${SELECT_KEY} FOR UPDATE`;

const keyOf = (row: ApiKeyRow): ApiKey =>
  ApiKey.restore({
    id: row.id,
    tenantId: row.tenant_id,
    keyHash: row.key_hash,
    displayPrefix: row.display_prefix,
    scopes: row.scopes,
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
  });

/** API keys with plain statements, as every other repository (decisions.md 137). */
@Injectable()
export class SqlApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(id: string, options: { forUpdate?: boolean } = {}): Promise<ApiKey | null> {
    if (options.forUpdate) requireTransaction(this.em, 'an api key read for update');
    const rows = await sqlRows<ApiKeyRow>(this.em, options.forUpdate ? SELECT_KEY_FOR_UPDATE : SELECT_KEY, [id]);
    return rows.length === 0 ? null : keyOf(rows[0]);
  }

  async findActiveByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    // The hot path of every request the key cache does not answer: one unique-index probe, no aggregate.
    const rows = await sqlRows<Pick<ApiKeyRow, 'id' | 'tenant_id' | 'scopes'>>(
      this.em,
      'SELECT id, tenant_id, scopes FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    return rows.length === 0 ? null : { apiKeyId: rows[0].id, tenantId: rows[0].tenant_id, scopes: rows[0].scopes };
  }

  async listByTenant(tenantId: string): Promise<ApiKey[]> {
    const rows = await sqlRows<ApiKeyRow>(this.em, `SELECT ${COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY id DESC`, [tenantId]);
    return rows.map(keyOf);
  }

  async add(key: ApiKey): Promise<void> {
    await sqlRows(
      this.em,
      `INSERT INTO api_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [key.id, key.tenantId, key.keyHash, key.displayPrefix, key.scopes, key.createdAt, key.revokedAt],
    );
  }

  async save(key: ApiKey): Promise<void> {
    await sqlRows(this.em, 'UPDATE api_keys SET revoked_at = $2 WHERE id = $1', [key.id, key.revokedAt]);
  }
}
