import { AggregateRoot, restored, StateOf } from '../shared/aggregate-root';
import { DomainError, InvalidValueError } from '../shared/domain-error';
import { newTypeId } from '../shared/type-id';
import { PortalCapability } from './portal-capability';

/** How long a session may live: from five minutes to seven days (decisions.md 186). */
export const PORTAL_SESSION_SECONDS = { min: 300, max: 604_800 } as const;

/** At most this many origins may embed one session's page, and this many subscriptions narrow it. */
export const PORTAL_LIMITS = { origins: 10, subscriptions: 100 } as const;

/** Why a link or a session token opens nothing; the page says which, the API answers 401 alike. */
export type PortalRefusal = 'unknown' | 'expired' | 'revoked' | 'used';

/**
 * A tenant's grant to a person to see and operate its webhooks in the portal page, for a while.
 * It is made with a one-use link token (the URL's fragment) that the page exchanges for a session
 * token; both are kept as hashes only. The session's capabilities, the subscriptions it is
 * narrowed to and the origins that may embed its page are fixed when it is made. Revocation and
 * expiry are final and take effect on the next request.
 */
export class PortalSession extends AggregateRoot<StateOf<PortalSession>> {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly capabilities: readonly PortalCapability[],
    /** Null: every subscription of the tenant. */
    readonly subscriptionIds: readonly string[] | null,
    /** Null: the page may not be embedded (frame-ancestors 'none'). */
    readonly allowedOrigins: readonly string[] | null,
    readonly linkTokenHash: string,
    readonly linkUsedAt: Date | null,
    readonly sessionTokenHash: string | null,
    readonly createdByApiKeyId: string | null,
    readonly createdAt: Date,
    readonly expiresAt: Date,
    readonly revokedAt: Date | null,
  ) {
    super();
  }

  static open(input: {
    tenantId: string;
    capabilities: readonly PortalCapability[];
    expiresInSeconds: number;
    subscriptionIds?: readonly string[];
    allowedOrigins?: readonly string[];
    linkTokenHash: string;
    createdByApiKeyId: string | null;
    now: Date;
  }): PortalSession {
    const seconds = input.expiresInSeconds;
    if (!Number.isInteger(seconds) || seconds < PORTAL_SESSION_SECONDS.min || seconds > PORTAL_SESSION_SECONDS.max) {
      throw new InvalidValueError('expiresIn', `must be a whole number of seconds from ${PORTAL_SESSION_SECONDS.min} to ${PORTAL_SESSION_SECONDS.max}`);
    }
    const origins = input.allowedOrigins === undefined ? null : [...new Set(input.allowedOrigins.map((origin) => checkedOrigin(origin)))];
    if (origins !== null && (origins.length === 0 || origins.length > PORTAL_LIMITS.origins)) {
      throw new InvalidValueError('allowedOrigins', `must list from 1 to ${PORTAL_LIMITS.origins} origins; leave it out for a page that is not embedded`);
    }
    const subscriptions = input.subscriptionIds === undefined ? null : [...new Set(input.subscriptionIds)];
    if (subscriptions !== null && (subscriptions.length === 0 || subscriptions.length > PORTAL_LIMITS.subscriptions)) {
      throw new InvalidValueError('subscriptionIds', `must list from 1 to ${PORTAL_LIMITS.subscriptions} subscriptions; leave it out for all of them`);
    }
    return new PortalSession(
      newTypeId('portal', input.now.getTime()),
      input.tenantId,
      input.capabilities,
      subscriptions,
      origins,
      input.linkTokenHash,
      null,
      null,
      input.createdByApiKeyId,
      input.now,
      new Date(input.now.getTime() + seconds * 1000),
      null,
    );
  }

  static restore(state: StateOf<PortalSession>): PortalSession {
    return restored(PortalSession.prototype, state);
  }

  /** Why the session opens nothing at `now`, or null while it is live. */
  refusal(now: Date): PortalRefusal | null {
    if (this.revokedAt !== null) return 'revoked';
    if (now.getTime() >= this.expiresAt.getTime()) return 'expired';
    return null;
  }

  /**
   * The link's one use: the session token the page will carry from now on. A link used once, or
   * a session that is no longer live, is refused (the caller answers 401 and writes nothing).
   */
  exchange(sessionTokenHash: string, now: Date): PortalRefusal | null {
    const refusal = this.refusal(now) ?? (this.linkUsedAt !== null ? 'used' : null);
    if (refusal !== null) return refusal;
    this.change({ linkUsedAt: now, sessionTokenHash });
    return null;
  }

  /** Final: revoking a revoked session keeps the first revocation time. */
  revoke(now: Date): void {
    this.change({ revokedAt: this.revokedAt ?? now });
  }

  allows(capability: PortalCapability): boolean {
    return this.capabilities.includes(capability);
  }

  /** Whether the session reaches this subscription (every one of the tenant's when not narrowed). */
  covers(subscriptionId: string): boolean {
    return this.subscriptionIds === null || this.subscriptionIds.includes(subscriptionId);
  }
}

/**
 * An origin as a browser sends it: scheme, host and port only, https (or http on loopback, for a
 * platform's own development), lower case, no path. Anything else could not match a browser's
 * Origin, or would let a page be framed by a site the tenant did not mean.
 */
export function checkedOrigin(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new InvalidValueError('allowedOrigins', 'must hold origins such as https://app.example.com');
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
  if (!scheme || url.username !== '' || url.password !== '' || url.origin !== given.replace(/\/$/, '').toLowerCase()) {
    throw new InvalidValueError('allowedOrigins', 'must hold origins such as https://app.example.com: https, no path, query or credentials (http only on loopback)');
  }
  return url.origin;
}

/** The key lacks a scope a capability of the session it asked for stands for. */
export class PortalScopeError extends DomainError {
  readonly code = 'INSUFFICIENT_SCOPE' as const;

  constructor(missing: readonly string[]) {
    super(`This API key lacks the scopes ${missing.join(', ')} that the capabilities asked for stand for; a portal session never reaches past the key that opens it.`, {
      missingScopes: [...missing],
    });
  }
}

/** A link or session token that opens nothing: unknown, expired, revoked, or a link used once already. */
export class PortalRefusedError extends DomainError {
  readonly code = 'UNAUTHENTICATED' as const;

  constructor(readonly reason: PortalRefusal) {
    super(`This portal link or session opens nothing (${reason}); ask for a new link.`, { reason });
  }
}
