import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant, reference } from './columns';
import { TenantEntity } from './tenant.entity';

export const IdempotencyKeyEntity = defineEntity({
  name: 'IdempotencyKeyRow',
  tableName: 'idempotency_keys',
  properties: {
    tenant: () => reference(TenantEntity).primary(),
    // The key's columns in the primary key's order: tenant, API key, key (decisions.md 175).
    apiKeyId: textKey().default(''),
    key: p.text().primary(),
    fingerprint: p.text(),
    responseStatus: p.integer(),
    responseBody: p.text(),
    createdAt: instant(),
    expiresAt: instant().index('idempotency_keys_expires_idx'),
  },
});

export type IdempotencyKeyRow = InferEntity<typeof IdempotencyKeyEntity>;
