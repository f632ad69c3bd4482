import { isIP } from 'node:net';

// Parsers of the variables that name addresses: proxies to trust, name servers, CORS origins.

export const TRUST_PROXY_EXPECTED =
  'false, the number of proxies in front of the API (1 to 10), or a comma-separated list of their addresses or CIDRs ' +
  '(or loopback, linklocal, uniquelocal); never true, which would let any client choose its address through X-Forwarded-For';
const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

export function trustProxy(raw: string): false | number | string | undefined {
  if (raw === 'false' || raw === '0') return false;
  if (/^\d{1,2}$/.test(raw)) return Number(raw) <= 10 ? Number(raw) : undefined;
  const entries = raw.split(',').map((entry) => entry.trim());
  return entries.every((entry) => PROXY_PRESETS.includes(entry) || isAddressOrCidr(entry)) ? entries.join(',') : undefined;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export function nameServers(raw: string): string[] | undefined {
  const list = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  const valid = (entry: string) => {
    const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
    if (bracketed) return isIP(bracketed[1]) === 6;
    if (isIP(entry) !== 0) return true;
    const [host, port, ...rest] = entry.split(':');
    return rest.length === 0 && isIP(host) === 4 && /^\d{1,5}$/.test(port ?? '');
  };
  return list.length > 0 && list.every(valid) ? list : undefined;
}

export function origins(raw: string): string[] | undefined {
  const list = raw.split(',').map((o) => o.trim()).filter((o) => o.length > 0);
  return list.every((o) => /^https?:\/\/[^/\s]+$/.test(o)) ? list : undefined;
}
