import type { ApiRequest } from '../api-request';

/**
 * The portal's address for a session's link: the API's own origin as the caller reached it (behind
 * a proxy, as Express's trust-proxy setting reads X-Forwarded-Proto and Host), `/portal`, the
 * session's id in the query (the server frames the page by it: the fragment never reaches it) and
 * the link token in the fragment, which a browser never sends to a server or in a Referer
 * (decisions.md 186).
 */
export function portalUrl(req: ApiRequest, sessionId: string, linkToken: string): string {
  return portalAddress(`${req.protocol}://${req.get('host')}`, sessionId, linkToken);
}

/** The same from a known origin of the API (the CLI's `--base-url`). */
export function portalAddress(origin: string, sessionId: string, linkToken: string): string {
  return `${origin.replace(/\/$/, '')}/portal?session=${sessionId}#token=${encodeURIComponent(linkToken)}`;
}
