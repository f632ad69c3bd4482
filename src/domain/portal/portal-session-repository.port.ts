import { PortalSession } from './portal-session';

/** Portal sessions, by tenant; a session token is found by its hash alone (the page knows no tenant). */
export abstract class PortalSessionRepository {
  abstract add(session: PortalSession): Promise<void>;
  abstract save(session: PortalSession): Promise<void>;
  abstract findById(tenantId: string, id: string, options?: { forUpdate?: boolean }): Promise<PortalSession | null>;
  /** The session a link token opens, locked for its one exchange. */
  abstract findByLinkHash(linkTokenHash: string): Promise<PortalSession | null>;
  abstract findBySessionHash(sessionTokenHash: string): Promise<PortalSession | null>;
  /** The session with this id whatever its tenant: only for what the page's own address may tell (its framing). */
  abstract findAnyById(id: string): Promise<PortalSession | null>;
  abstract listByTenant(tenantId: string, page: { after?: string; limit: number }): Promise<PortalSession[]>;
}
