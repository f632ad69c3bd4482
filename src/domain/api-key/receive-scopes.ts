import { LoggedEventType } from '../events/event-catalogue';
import { DomainError } from '../shared/domain-error';
import { ApiKeyScope, ApiKeyScopes, scopeAllows } from './api-key-scope';

/**
 * The read scope an event of each kind needs (docs/decisions.md 178): a subscription delivers the
 * event's whole body to a URL its key chose, so what it may receive is what that key may read.
 * `events:read` reads every kind already (GET /v0/events), so it covers them all. A test event
 * carries nothing of the tenant's: no scope beyond the operation's own.
 */
export const SCOPE_TO_RECEIVE: Readonly<Record<LoggedEventType, ApiKeyScope | null>> = {
  'page.version.created': 'pages:read',
  'brand.created': 'brands:read',
  'brand.updated': 'brands:read',
  'webhook_subscription.failing': 'webhooks:read',
  'webhook_subscription.recovered': 'webhooks:read',
  'webhook_subscription.disabled': 'webhooks:read',
  'webhook.test': null,
};

/** The first read scope `granted` lacks to receive every kind in `kinds`; null when it may. */
export function scopeMissingToReceive(granted: ApiKeyScopes, kinds: readonly string[]): ApiKeyScope | null {
  if (granted === null || scopeAllows(granted, 'events:read')) return null;
  for (const kind of kinds) {
    const needed = SCOPE_TO_RECEIVE[kind as LoggedEventType];
    // A kind outside the catalogue (none is stored: subscriptions are checked) needs events:read.
    if (needed === undefined) return 'events:read';
    if (needed !== null && !scopeAllows(granted, needed)) return needed;
  }
  return null;
}

/** The kinds a key may receive, for a store's filter; null when every kind. */
export function kindsReceivableWith(granted: ApiKeyScopes): readonly LoggedEventType[] | null {
  if (granted === null || scopeAllows(granted, 'events:read')) return null;
  return (Object.keys(SCOPE_TO_RECEIVE) as LoggedEventType[]).filter((kind) => scopeMissingToReceive(granted, [kind]) === null);
}

/** The key's scopes do not cover an event kind the subscription would send to its URL. */
export class ReceiveScopeError extends DomainError {
  readonly code = 'INSUFFICIENT_SCOPE' as const;

  constructor(requiredScope: ApiKeyScope, granted: readonly ApiKeyScope[]) {
    super(`This API key lacks the scope ${requiredScope} (or events:read) to have these events sent to a webhook subscription.`, { requiredScope, grantedScopes: [...granted] });
  }
}

/** The error refusing `granted` one of `kinds`, or null when it may receive them all. */
export function receiveRefusal(granted: ApiKeyScopes, kinds: readonly string[]): ReceiveScopeError | null {
  const missing = scopeMissingToReceive(granted, kinds);
  return missing === null ? null : new ReceiveScopeError(missing, granted ?? []);
}

/** ReceiveScopeError unless `granted` may receive every kind in `kinds`. */
export function checkMayReceive(granted: ApiKeyScopes, kinds: readonly string[]): void {
  const refusal = receiveRefusal(granted, kinds);
  if (refusal) throw refusal;
}
