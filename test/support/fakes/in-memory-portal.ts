import { PortalSecrets } from '../../../src/domain/portal/portal-secrets.port';
import { PortalSession } from '../../../src/domain/portal/portal-session';
import { PortalSessionRepository } from '../../../src/domain/portal/portal-session-repository.port';

/** Portal sessions in memory, newest first as the SQL repository lists them. */
export class InMemoryPortalSessions extends PortalSessionRepository {
  readonly rows = new Map<string, PortalSession>();
  async add(session: PortalSession): Promise<void> {
    this.rows.set(session.id, session);
  }
  async save(session: PortalSession): Promise<void> {
    this.rows.set(session.id, session);
  }
  async findById(tenantId: string, id: string): Promise<PortalSession | null> {
    const session = this.rows.get(id);
    return session && session.tenantId === tenantId ? session : null;
  }
  async findByLinkHash(linkTokenHash: string): Promise<PortalSession | null> {
    return [...this.rows.values()].find((s) => s.linkTokenHash === linkTokenHash) ?? null;
  }
  async findBySessionHash(sessionTokenHash: string): Promise<PortalSession | null> {
    return [...this.rows.values()].find((s) => s.sessionTokenHash === sessionTokenHash) ?? null;
  }
  async findAnyById(id: string): Promise<PortalSession | null> {
    return this.rows.get(id) ?? null;
  }
  async listByTenant(tenantId: string, page: { after?: string; limit: number }): Promise<PortalSession[]> {
    return [...this.rows.values()]
      .filter((s) => s.tenantId === tenantId && (page.after === undefined || s.id < page.after))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .slice(0, page.limit);
  }
}

/** Predictable tokens: `link-1`, `session-2`…, hashed as `hash(<token>)`; any other shape is no token. */
export class CountingPortalSecrets extends PortalSecrets {
  private made = 0;
  generate(kind: 'link' | 'session'): { token: string; hash: string } {
    const token = `${kind}-${++this.made}`;
    return { token, hash: `hash(${token})` };
  }
  hash(kind: 'link' | 'session', token: string): string | null {
    return token.startsWith(`${kind}-`) ? `hash(${token})` : null;
  }
}
