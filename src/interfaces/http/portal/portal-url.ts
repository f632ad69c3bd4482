import type { ApiRequest } from '../api-request';

/**
 * The portal's address for a link token: the API's own origin as the caller reached it (behind a
 * proxy, as Express's trust-proxy setting reads X-Forwarded-Proto and Host), `/portal`, and the
 * token in the fragment, which a browser never sends to a server or in a Referer (decisions.md 186).
 */
export function portalUrl(req: ApiRequest, linkToken: string): string {
  return `${req.protocol}://${req.get('host')}/portal#token=${encodeURIComponent(linkToken)}`;
}
