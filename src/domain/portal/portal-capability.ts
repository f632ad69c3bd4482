import { ApiKeyScope, ApiKeyScopes, scopeAllows } from '../api-key/api-key-scope';
import { InvalidValueError } from '../shared/domain-error';

/**
 * What a portal session's viewer may do (decisions.md 186). Every session may read deliveries:
 * a page that retries or tests must show what it did, so `deliveries:read` is part of every
 * session, and a session with it alone is read-only.
 */
export const PORTAL_CAPABILITIES = ['deliveries:read', 'deliveries:retry', 'events:test', 'subscriptions:manage', 'secrets:rotate'] as const;

export type PortalCapability = (typeof PORTAL_CAPABILITIES)[number];

/**
 * The API key scopes each capability stands for. The key that opens a session must hold all of
 * them, so a session never reaches past the key that made it; a retry and a subscription's change
 * decide what is delivered, so they need `events:read` too, as for API keys (decisions.md 176).
 */
export const CAPABILITY_SCOPES: Record<PortalCapability, readonly ApiKeyScope[]> = {
  'deliveries:read': ['webhooks:read', 'events:read'],
  'deliveries:retry': ['webhooks:write', 'events:read'],
  'events:test': ['webhooks:write'],
  'subscriptions:manage': ['webhooks:write', 'events:read'],
  'secrets:rotate': ['webhooks:write'],
};

const KNOWN = new Set<string>(PORTAL_CAPABILITIES);

/** The capabilities as given, checked, with `deliveries:read` added, in the catalogue's order. */
export function parseCapabilities(names: readonly string[], field = 'capabilities'): PortalCapability[] {
  const unknown = names.find((name) => !KNOWN.has(name));
  if (unknown !== undefined) throw new InvalidValueError(field, `has an unknown capability; known capabilities: ${PORTAL_CAPABILITIES.join(', ')}`);
  return PORTAL_CAPABILITIES.filter((capability) => capability === 'deliveries:read' || names.includes(capability));
}

/** The scopes a set of capabilities stands for, without repeats. */
export function scopesOf(capabilities: readonly PortalCapability[]): ApiKeyScope[] {
  return [...new Set(capabilities.flatMap((capability) => CAPABILITY_SCOPES[capability]))];
}

/** The scopes among those the capabilities need that a key's grant lacks (none: it may open the session). */
export function scopesMissing(granted: ApiKeyScopes, capabilities: readonly PortalCapability[]): ApiKeyScope[] {
  return scopesOf(capabilities).filter((scope) => !scopeAllows(granted, scope));
}
