import { Injectable } from '@nestjs/common';
import { PortalSessionRepository } from '../../domain/portal/portal-session-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { isTypeId } from '../../domain/shared/type-id';

/**
 * Which pages may frame the portal page opened for a session (its `allowedOrigins`), read from
 * the session id in the page's address before any token is known (the token is in the fragment,
 * which the server never sees). An unknown, expired or revoked session, or one that allows no
 * embedding, is framed by none. The id tells nothing else: whoever holds it learns only whether
 * the page may be framed, and the page checks that its token belongs to the same session.
 */
@Injectable()
export class PortalFraming {
  constructor(
    private readonly sessions: PortalSessionRepository,
    private readonly clock: Clock,
  ) {}

  async execute(sessionId: string | undefined): Promise<readonly string[]> {
    if (sessionId === undefined || !isTypeId(sessionId, 'portal')) return [];
    const session = await this.sessions.findAnyById(sessionId);
    if (session === null || session.refusal(this.clock.now()) !== null) return [];
    return session.allowedOrigins ?? [];
  }
}
