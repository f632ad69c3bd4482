import { isIPv4, isIPv6 } from 'node:net';
import type { Caller } from '../../../application/api-key/authenticate-api-key.use-case';
import type { RateLimitSettings } from '../../../application/rate-limit/rate-limit-settings.port';
import type { ApiRequest } from '../api-request';

/**
 * The unit failed authentications are counted in (decisions.md 38): one IPv4 address, or one
 * IPv6 /64, since a single host is routinely given a whole /64 and could otherwise rotate through
 * 2^64 addresses. IPv4-mapped IPv6 (`::ffff:a.b.c.d`, as a dual-stack socket reports IPv4 peers)
 * counts as its IPv4 address.
 */
export function clientAddressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  if (isIPv4(ip)) return ip;
  const zoneless = ip.split('%')[0];
  if (!isIPv6(zoneless)) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(zoneless);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  return `${expandIPv6(zoneless).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, lower-case and without leading zeros. */
export function expandIPv6(ip: string): string[] {
  let text = ip.toLowerCase();
  // A trailing dotted IPv4 part stands for the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}

/** The request's address as its budget of failed authentications counts it (ApiKeyGuard). */
export function callerOf(req: ApiRequest, limits: RateLimitSettings): Caller {
  return { failuresKey: `authfail:${clientAddressKey(req.ip)}`, failuresMax: limits.authFailuresMax };
}
