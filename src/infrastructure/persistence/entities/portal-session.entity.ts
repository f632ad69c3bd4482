import { type InferEntity, defineEntity, p } from '@mikro-orm/postgresql';
import { textKey, reference, instant } from './columns';
import type { PortalCapability } from '../../../domain/portal/portal-capability';
import { ApiKeyEntity } from './api-key.entity';
import { TenantEntity } from './tenant.entity';

/** Portal sessions (decisions.md 186): tokens kept as hashes only, each unique, found by it alone. */
export const PortalSessionEntity = defineEntity({
  name: 'PortalSessionRow',
  tableName: 'portal_sessions',
  indexes: [{ name: 'portal_sessions_tenant_id_idx', properties: ['tenant', 'id'] }],
  checks: [
    { name: 'portal_sessions_capabilities_check', expression: 'cardinality(capabilities) > 0' },
    { name: 'portal_sessions_expiry_check', expression: 'expires_at > created_at' },
  ],
  properties: {
    id: textKey(),
    tenant: () => reference(TenantEntity),
    capabilities: p.array().columnType('text[]').$type<PortalCapability[]>(),
    /** Null: every subscription of the tenant. */
    subscriptionIds: p.array().columnType('text[]').nullable(),
    /** Null: the page may not be embedded. */
    allowedOrigins: p.array().columnType('text[]').nullable(),
    linkTokenHash: p.text().unique('portal_sessions_link_token_hash_key'),
    linkUsedAt: instant().nullable(),
    sessionTokenHash: p.text().nullable().unique('portal_sessions_session_token_hash_key'),
    createdByApiKey: () => p.manyToOne(ApiKeyEntity).nullable().updateRule('no action').deleteRule('no action').collation('C'),
    createdAt: instant(),
    expiresAt: instant(),
    revokedAt: instant().nullable(),
  },
});

export type PortalSessionRow = InferEntity<typeof PortalSessionEntity>;
