import { PortalCapability } from '../../domain/portal/portal-capability';
import { PortalSession } from '../../domain/portal/portal-session';

/** A portal session as the API answers it: never a token or a token's hash. */
export interface PortalSessionView {
  id: string;
  capabilities: PortalCapability[];
  /** Null: every subscription of the tenant. */
  subscriptionIds: string[] | null;
  /** Null: the page may not be embedded. */
  allowedOrigins: string[] | null;
  /** Whether the link was exchanged (it opens the page once). */
  linkUsed: boolean;
  status: 'active' | 'expired' | 'revoked';
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export function toPortalSessionView(session: PortalSession, now: Date): PortalSessionView {
  const refusal = session.refusal(now);
  return {
    id: session.id,
    capabilities: [...session.capabilities],
    subscriptionIds: session.subscriptionIds && [...session.subscriptionIds],
    allowedOrigins: session.allowedOrigins && [...session.allowedOrigins],
    linkUsed: session.linkUsedAt !== null,
    status: refusal === 'revoked' ? 'revoked' : refusal === 'expired' ? 'expired' : 'active',
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    revokedAt: session.revokedAt?.toISOString() ?? null,
  };
}
