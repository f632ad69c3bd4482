import { createHash } from 'node:crypto';
import { BoundedMemo } from '../../memo/bounded-memo';

/**
 * The receiver a delivery goes to, as the worker's in-flight caps count it: the tenant and the
 * URL's origin (scheme, host and port). The tenant is part of it because caps count what a
 * tenant owns: integration platforms and gateways put many customers' hooks on one origin, told
 * apart by path, and one tenant's hanging paths there must not hold back another tenant's
 * deliveries to the same host. Within a tenant the origin is the unit, since a receiver that
 * hangs usually hangs for all its paths. Hashed, so the queue never holds a URL (which may carry
 * a token in its path or query).
 */
export function endpointKey(tenantId: string, url: string): string {
  // Asked for every attempt claimed and every delivery relayed, for a few distinct URLs: a URL
  // parse and a digest each time were a measurable share of the worker's garbage in a drain.
  const input = `${tenantId} ${url}`;
  let key = keys.get(input);
  if (key === undefined) {
    key = digestOf(tenantId, url);
    keys.set(input, key);
  }
  return key;
}

/** Keys by tenant and URL; a pure function of them, so a kept key never goes stale. */
const keys = new BoundedMemo<string>(10_000);

function digestOf(tenantId: string, url: string): string {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = url;
  }
  return createHash('sha256').update(`${tenantId} ${origin}`).digest('base64url').slice(0, 16);
}
