import { type Opt, PrimaryKeyProp, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, instant, reference } from './columns';
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
    tenant: () => reference(TenantRow).primary(),
    // The key's columns in the primary key's order: tenant, API key, key (decisions.md 175).
    apiKeyId: textKey(),
    key: p.text().primary(),
    fingerprint: p.text(),
    responseStatus: p.integer(),
    responseBody: p.text(),
    createdAt: instant(),
    expiresAt: instant().index('idempotency_keys_expires_idx'),
  },
});
