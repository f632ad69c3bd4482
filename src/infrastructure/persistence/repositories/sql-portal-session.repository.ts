import { EntityManager, LockMode, QueryOrder } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PortalSession } from '../../../domain/portal/portal-session';
import { PortalSessionRepository } from '../../../domain/portal/portal-session-repository.port';
import { requireTransaction } from '../connection/sql-statement';
import { PortalSessionEntity, type PortalSessionRow } from '../entities/portal-session.entity';
import { schema } from '../typed/database';
import { type RowOf, typedStatement } from '../typed/statement';

const COLUMNS = [
  'id', 'tenant_id', 'capabilities', 'subscription_ids', 'allowed_origins', 'link_token_hash', 'link_used_at', 'session_token_hash',
  'created_by_api_key_id', 'created_at', 'expires_at', 'revoked_at',
] as const;

// On the path of every request the portal page makes: one unique-index probe, no entity.
const BY_SESSION_HASH = typedStatement<{ hash: string }>()((arg) => schema.selectFrom('portal_sessions').select(COLUMNS).where('session_token_hash', '=', arg('hash')));

const sessionOf = (row: RowOf<typeof BY_SESSION_HASH>): PortalSession =>
  PortalSession.restore({
    id: row.id,
    tenantId: row.tenant_id,
    capabilities: row.capabilities,
    subscriptionIds: row.subscription_ids,
    allowedOrigins: row.allowed_origins,
    linkTokenHash: row.link_token_hash,
    linkUsedAt: row.link_used_at === null ? null : new Date(row.link_used_at),
    sessionTokenHash: row.session_token_hash,
    createdByApiKeyId: row.created_by_api_key_id,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
  });

const entitySessionOf = (row: PortalSessionRow): PortalSession =>
  PortalSession.restore({
    id: row.id,
    tenantId: row.tenant.id,
    capabilities: row.capabilities,
    subscriptionIds: row.subscriptionIds,
    allowedOrigins: row.allowedOrigins,
    linkTokenHash: row.linkTokenHash,
    linkUsedAt: row.linkUsedAt,
    sessionTokenHash: row.sessionTokenHash,
    createdByApiKeyId: row.createdByApiKey?.id ?? null,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  });

/**
 * Portal sessions. Opening, listing, revoking and the link's exchange are cold: the ORM's own
 * calls (decisions.md 185), with the identity map left alone. The lookup of a session token is
 * on every request of the page: a typed statement.
 */
@Injectable()
export class SqlPortalSessionRepository extends PortalSessionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(session: PortalSession): Promise<void> {
    await this.em.insert(PortalSessionEntity, {
      id: session.id,
      tenant: session.tenantId,
      capabilities: [...session.capabilities],
      subscriptionIds: session.subscriptionIds && [...session.subscriptionIds],
      allowedOrigins: session.allowedOrigins && [...session.allowedOrigins],
      linkTokenHash: session.linkTokenHash,
      linkUsedAt: session.linkUsedAt,
      sessionTokenHash: session.sessionTokenHash,
      createdByApiKey: session.createdByApiKeyId,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      revokedAt: session.revokedAt,
    });
  }

  /** What can change after the opening: the link's use, the session token, the revocation. */
  async save(session: PortalSession): Promise<void> {
    await this.em.nativeUpdate(
      PortalSessionEntity,
      { id: session.id, tenant: session.tenantId },
      { linkUsedAt: session.linkUsedAt, sessionTokenHash: session.sessionTokenHash, revokedAt: session.revokedAt },
    );
  }

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<PortalSession | null> {
    if (options.forUpdate) requireTransaction(this.em, 'a portal session read for update');
    const row = await this.em.findOne(PortalSessionEntity, { id, tenant: tenantId }, { disableIdentityMap: true, ...(options.forUpdate && { lockMode: LockMode.PESSIMISTIC_WRITE }) });
    return row ? entitySessionOf(row) : null;
  }

  async findByLinkHash(linkTokenHash: string): Promise<PortalSession | null> {
    requireTransaction(this.em, "a portal link's exchange");
    const row = await this.em.findOne(PortalSessionEntity, { linkTokenHash }, { disableIdentityMap: true, lockMode: LockMode.PESSIMISTIC_WRITE });
    return row ? entitySessionOf(row) : null;
  }

  async findBySessionHash(sessionTokenHash: string): Promise<PortalSession | null> {
    const [row] = await BY_SESSION_HASH.rows(this.em, { hash: sessionTokenHash });
    return row ? sessionOf(row) : null;
  }

  async listByTenant(tenantId: string, page: { after?: string; limit: number }): Promise<PortalSession[]> {
    const rows = await this.em.find(
      PortalSessionEntity,
      { tenant: tenantId, ...(page.after !== undefined && { id: { $lt: page.after } }) },
      { orderBy: { id: QueryOrder.DESC }, limit: page.limit, disableIdentityMap: true },
    );
    return rows.map(entitySessionOf);
  }
}
