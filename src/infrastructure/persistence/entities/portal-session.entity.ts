import { defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant } from './columns';
import type { PortalCapability } from '../../../domain/portal/portal-capability';
import { ApiKeyRow } from './api-key.entity';
import { TenantRow } from './tenant.entity';

export class PortalSessionRow {
  id!: string;
  tenant!: TenantRow;
  capabilities!: PortalCapability[];
  /** Null: every subscription of the tenant. */
  subscriptionIds: string[] | null = null;
  /** Null: the page may not be embedded. */
  allowedOrigins: string[] | null = null;
  linkTokenHash!: string;
  linkUsedAt: Date | null = null;
  sessionTokenHash: string | null = null;
  createdByApiKey: ApiKeyRow | null = null;
  createdAt!: Date;
  expiresAt!: Date;
  revokedAt: Date | null = null;
}

/** Portal sessions (decisions.md 186): tokens kept as hashes only, each unique, found by it alone. */
export const PortalSessionEntity = defineEntity({
  class: PortalSessionRow,
  tableName: 'portal_sessions',
  indexes: [{ name: 'portal_sessions_tenant_id_idx', properties: ['tenant', 'id'] }],
  checks: [
    { name: 'portal_sessions_capabilities_check', expression: 'cardinality(capabilities) > 0' },
    { name: 'portal_sessions_expiry_check', expression: 'expires_at > created_at' },
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantRow),
    capabilities: p.array().columnType('text[]').$type<PortalCapability[]>(),
    subscriptionIds: p.array().columnType('text[]').nullable(),
    allowedOrigins: p.array().columnType('text[]').nullable(),
    linkTokenHash: p.text().unique('portal_sessions_link_token_hash_key'),
    linkUsedAt: instant().nullable(),
    sessionTokenHash: p.text().nullable().unique('portal_sessions_session_token_hash_key'),
    createdByApiKey: () => p.manyToOne(ApiKeyRow).nullable().updateRule('no action').deleteRule('no action').collation('C'),
    createdAt: instant(),
    expiresAt: instant(),
    revokedAt: instant().nullable(),
  },
});
