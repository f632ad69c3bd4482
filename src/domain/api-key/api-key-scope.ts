import { InvalidValueError } from '../shared/domain-error';

/**
 * What a key may do, by resource and verb. A `write` scope includes the `read` of the same
 * resource, as Stripe's restricted keys and GitHub's fine-grained tokens do: a key that may change
 * a thing may see it. A key without scopes (null) may do everything: the keys issued before
 * scopes existed keep working unchanged (docs/decisions.md 138).
 */
export const API_KEY_SCOPES = [
  'brands:read',
  'brands:write',
  'page_groups:read',
  'pages:read',
  'pages:write',
  'templates:read',
  'templates:write',
  'webhooks:read',
  'webhooks:write',
  'events:read',
] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A key's grant: its scopes, or null for full access. */
export type ApiKeyScopes = readonly ApiKeyScope[] | null;

const KNOWN = new Set<string>(API_KEY_SCOPES);

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return KNOWN.has(value);
}

/** Whether a key with `granted` may do what `needed` names. */
export function scopeAllows(granted: ApiKeyScopes, needed: ApiKeyScope): boolean {
  if (granted === null) return true;
  if (granted.includes(needed)) return true;
  return needed.endsWith(':read') && granted.includes(needed.replace(/:read$/, ':write') as ApiKeyScope);
}

/**
 * The scopes as given (a list of names), checked, without repeats, in the catalogue's order. An
 * empty list is refused rather than read as "no access" or "full access": both would surprise.
 */
export function parseScopes(names: readonly string[], field = 'scopes'): ApiKeyScope[] {
  if (names.length === 0) throw new InvalidValueError(field, 'must name at least one scope; leave it out for full access');
  const unknown = names.find((name) => !isApiKeyScope(name));
  if (unknown !== undefined) throw new InvalidValueError(field, `has an unknown scope; known scopes: ${API_KEY_SCOPES.join(', ')}`);
  return API_KEY_SCOPES.filter((scope) => names.includes(scope));
}
