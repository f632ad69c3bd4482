import { Injectable } from '@nestjs/common';
import { ApiKeyScope } from '../../domain/api-key/api-key-scope';
import { PortalCapability, scopesOf } from '../../domain/portal/portal-capability';
import { PortalRefusedError } from '../../domain/portal/portal-session';
import { PortalSecrets } from '../../domain/portal/portal-secrets.port';
import { PortalSessionRepository } from '../../domain/portal/portal-session-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { PortalSessionView, toPortalSessionView } from './portal-session.view';

/** Who a portal session token speaks for, and what it may do. */
export interface PortalPrincipal {
  tenantId: string;
  portalSessionId: string;
  capabilities: readonly PortalCapability[];
  /** The API key scopes its capabilities stand for: what the routes' scope checks see. */
  scopes: readonly ApiKeyScope[];
  /** Null: every subscription of the tenant. */
  subscriptionIds: readonly string[] | null;
  allowedOrigins: readonly string[] | null;
}

/**
 * The link's one use: the page sends the token from its URL's fragment and gets the session
 * token it carries from then on (POST /v0/portal_sessions/exchange). A link used once, unknown,
 * expired or revoked opens nothing, and the same 401 says so with its reason.
 */
@Injectable()
export class ExchangePortalLink {
  constructor(
    private readonly sessions: PortalSessionRepository,
    private readonly secrets: PortalSecrets,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(input: { linkToken: string }): Promise<{ sessionToken: string; session: PortalSessionView }> {
    const linkHash = this.secrets.hash('link', input.linkToken);
    if (linkHash === null) throw new PortalRefusedError('unknown');
    return this.unitOfWork.run(async () => {
      const session = await this.sessions.findByLinkHash(linkHash);
      if (!session) throw new PortalRefusedError('unknown');
      const token = this.secrets.generate('session');
      const now = this.clock.now();
      const refusal = session.exchange(token.hash, now);
      if (refusal !== null) throw new PortalRefusedError(refusal);
      await this.sessions.save(session);
      return { sessionToken: token.token, session: toPortalSessionView(session, now) };
    });
  }
}

/**
 * The principal of a session token, looked up afresh on every request, so that a revocation or
 * an expiry stops the page at once; a refusal says why, for the page to show.
 */
@Injectable()
export class AuthenticatePortalSession {
  constructor(
    private readonly sessions: PortalSessionRepository,
    private readonly secrets: PortalSecrets,
    private readonly clock: Clock,
  ) {}

  async execute(sessionToken: string): Promise<PortalPrincipal> {
    const hash = this.secrets.hash('session', sessionToken);
    const session = hash === null ? null : await this.sessions.findBySessionHash(hash);
    if (!session) throw new PortalRefusedError('unknown');
    const refusal = session.refusal(this.clock.now());
    if (refusal !== null) throw new PortalRefusedError(refusal);
    return {
      tenantId: session.tenantId,
      portalSessionId: session.id,
      capabilities: session.capabilities,
      scopes: scopesOf(session.capabilities),
      subscriptionIds: session.subscriptionIds,
      allowedOrigins: session.allowedOrigins,
    };
  }
}
