import { createHash } from 'node:crypto';

/**
 * The receiver a delivery goes to, as the worker's in-flight caps count it: the URL's origin
 * (scheme, host and port), since a receiver that hangs, hangs for all its paths. Hashed, so the
 * queue never holds a URL (which may carry a token in its path or query).
 */
export function endpointKey(url: string): string {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = url;
  }
  return createHash('sha256').update(origin).digest('base64url').slice(0, 16);
}
