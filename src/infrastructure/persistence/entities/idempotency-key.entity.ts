import { type Opt, PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';
import { TenantRow } from './tenant.entity';

export class IdempotencyKeyRow {
  [PrimaryKeyProp]?: ['tenant', 'apiKeyId', 'key'];
  tenant!: TenantRow;
  key!: string;
  fingerprint!: string;
  responseStatus!: number;
  responseBody!: string;
  createdAt!: Date;
  expiresAt!: Date;
  apiKeyId: string & Opt = '';
}

export const IdempotencyKeyEntity = defineEntity({
  class: IdempotencyKeyRow,
  tableName: 'idempotency_keys',
  properties: {
    tenant: () => p.manyToOne(TenantRow).primary().updateRule('no action').deleteRule('no action').collation('C'),
    // The key's columns in the primary key's order: tenant, API key, key (decisions.md 175).
    apiKeyId: p.text().primary().collation('C'),
    key: p.text().primary(),
    fingerprint: p.text(),
    responseStatus: p.integer(),
    responseBody: p.text(),
    createdAt: p.datetime().length(3),
    expiresAt: p.datetime().length(3).index('idempotency_keys_expires_idx'),
  },
});
