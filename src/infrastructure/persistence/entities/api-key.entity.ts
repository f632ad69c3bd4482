import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant } from './columns';
import type { ApiKeyScope } from '../../../domain/api-key/api-key-scope';
import { TenantEntity } from './tenant.entity';

export const ApiKeyEntity = defineEntity({
  name: 'ApiKeyRow',
  tableName: 'api_keys',
  indexes: [{ name: 'api_keys_tenant_id_idx', properties: ['tenant', 'id'] }],
  checks: [
    {
      name: 'api_keys_scopes_check',
      expression: '(scopes IS NULL) OR (cardinality(scopes) > 0)',
    },
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    keyHash: p.text().unique('api_keys_key_hash_key'),
    displayPrefix: p.text(),
    createdAt: instant(),
    revokedAt: instant().nullable(),
    /** Null: full access (every key issued before scopes existed); the check admits no empty list. */
    scopes: p.array().columnType('text[]').$type<ApiKeyScope[]>().nullable(),
  },
});

export type ApiKeyRow = InferEntity<typeof ApiKeyEntity>;
