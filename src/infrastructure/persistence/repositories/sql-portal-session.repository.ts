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
// Statements that carry a token's hash bind it as a parameter: the ORM's own calls write values
// into the statement's text (MikroORM 7, mikro-orm#8001), which spans and pg_stat_activity show.
const BY_LINK_HASH = typedStatement<{ hash: string }>()((arg) => schema.selectFrom('portal_sessions').select(COLUMNS).where('link_token_hash', '=', arg('hash')).forUpdate());
type Stored = { id: string; tenantId: string; capabilities: string[]; subscriptionIds: string[] | null; allowedOrigins: string[] | null; linkTokenHash: string; linkUsedAt: Date | null; sessionTokenHash: string | null; createdByApiKeyId: string | null; createdAt: Date; expiresAt: Date; revokedAt: Date | null };
const INSERT = typedStatement<Stored>()((arg) =>
  schema.insertInto('portal_sessions').values({
    id: arg('id'), tenant_id: arg('tenantId'), capabilities: arg('capabilities') as never, subscription_ids: arg('subscriptionIds') as never, allowed_origins: arg('allowedOrigins') as never,
    link_token_hash: arg('linkTokenHash'), link_used_at: arg('linkUsedAt'), session_token_hash: arg('sessionTokenHash'), created_by_api_key_id: arg('createdByApiKeyId'),
    created_at: arg('createdAt'), expires_at: arg('expiresAt'), revoked_at: arg('revokedAt'),
  }),
);
const UPDATE = typedStatement<Pick<Stored, 'id' | 'tenantId' | 'linkUsedAt' | 'sessionTokenHash' | 'revokedAt'>>()((arg) =>
  schema
    .updateTable('portal_sessions')
    .set({ link_used_at: arg('linkUsedAt'), session_token_hash: arg('sessionTokenHash'), revoked_at: arg('revokedAt') })
    .where('id', '=', arg('id'))
    .where('tenant_id', '=', arg('tenantId')),
);

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
    subscriptionIds: row.subscriptionIds ?? null,
    allowedOrigins: row.allowedOrigins ?? null,
    linkTokenHash: row.linkTokenHash,
    linkUsedAt: row.linkUsedAt ?? null,
    sessionTokenHash: row.sessionTokenHash ?? null,
    createdByApiKeyId: row.createdByApiKey?.id ?? null,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt ?? null,
  });

/**
 * Portal sessions. Finding and listing them by id are cold: the ORM's own calls (decisions.md
 * 185), with the identity map left alone. Every statement that carries a token's hash is a typed
 * statement, the hash a bound parameter (above); the lookup of a session token is also on every
 * request of the page.
 */
@Injectable()
export class SqlPortalSessionRepository extends PortalSessionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(session: PortalSession): Promise<void> {
    await INSERT.count(this.em, {
      id: session.id, tenantId: session.tenantId, capabilities: [...session.capabilities], subscriptionIds: session.subscriptionIds && [...session.subscriptionIds],
      allowedOrigins: session.allowedOrigins && [...session.allowedOrigins], linkTokenHash: session.linkTokenHash, linkUsedAt: session.linkUsedAt,
      sessionTokenHash: session.sessionTokenHash, createdByApiKeyId: session.createdByApiKeyId, createdAt: session.createdAt, expiresAt: session.expiresAt, revokedAt: session.revokedAt,
    });
  }

  /** What can change after the opening: the link's use, the session token, the revocation. */
  async save(session: PortalSession): Promise<void> {
    await UPDATE.count(this.em, { id: session.id, tenantId: session.tenantId, linkUsedAt: session.linkUsedAt, sessionTokenHash: session.sessionTokenHash, revokedAt: session.revokedAt });
  }

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<PortalSession | null> {
    if (options.forUpdate) requireTransaction(this.em, 'a portal session read for update');
    const row = await this.em.findOne(PortalSessionEntity, { id, tenant: tenantId }, { disableIdentityMap: true, ...(options.forUpdate && { lockMode: LockMode.PESSIMISTIC_WRITE }) });
    return row ? entitySessionOf(row) : null;
  }

  async findByLinkHash(linkTokenHash: string): Promise<PortalSession | null> {
    requireTransaction(this.em, "a portal link's exchange");
    const [row] = await BY_LINK_HASH.rows(this.em, { hash: linkTokenHash });
    return row ? sessionOf(row) : null;
  }

  async findBySessionHash(sessionTokenHash: string): Promise<PortalSession | null> {
    const [row] = await BY_SESSION_HASH.rows(this.em, { hash: sessionTokenHash });
    return row ? sessionOf(row) : null;
  }

  async findAnyById(id: string): Promise<PortalSession | null> {
    const row = await this.em.findOne(PortalSessionEntity, { id }, { disableIdentityMap: true });
    return row ? entitySessionOf(row) : null;
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
