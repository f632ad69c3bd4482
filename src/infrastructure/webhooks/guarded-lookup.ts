import { LookupAddress, promises as dns } from 'node:dns';
import { forbiddenClass } from './address-policy';

/** A refused target: the message names the class, never more of the URL than the host. */
export class ForbiddenTargetError extends Error {
  readonly code = 'EFORBIDDENTARGET';
  constructor(host: string, cls: string) {
    super(`forbidden target address for ${host} (${cls})`);
  }
}

/** No address came back in time (a name server that does not answer). */
export class LookupTimeoutError extends Error {
  readonly code = 'EDNSTIMEOUT';
  constructor(host: string) {
    super(`no DNS answer for ${host} in time`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Lookup = (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => void;

export interface LookupSettings {
  /** Refuse hosts any of whose addresses is forbidden (decisions.md, Webhooks); false in tests. */
  guard: boolean;
  /** Name servers (`host` or `host:port`); the system's when absent. */
  servers?: string[];
  /** Time one query may take, and how often it is tried in all. */
  timeoutMs: number;
  tries: number;
}

// `localhost` never goes to DNS (c-ares does not read /etc/hosts): it is loopback by definition.
const LOCALHOST: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * A `lookup` for net/tls.connect that resolves with c-ares (dns.promises.Resolver), not with
 * `dns.lookup`: that runs getaddrinfo on libuv's four-thread pool, where four lookups in a zone
 * whose name servers never answer block every other delivery's lookup (and the pool's other
 * users) until the system resolver gives up, whatever the request's own timeout. Each lookup has
 * a resolver of its own with a short timeout, cancelled when it ends. With `guard`, the host is
 * refused when any of its addresses is forbidden; the socket then connects to exactly the
 * addresses checked (no second resolution, so no DNS-rebinding window).
 */
export function resolvingLookup(settings: LookupSettings): Lookup {
  return (hostname, options, callback) => {
    resolveAll(hostname, settings).then(
      (found) => {
        const addresses = found.filter((a) => !options.family || a.family === options.family);
        const forbidden = settings.guard ? addresses.map((a) => forbiddenClass(a.address)).find((cls) => cls !== null) : undefined;
        if (forbidden || addresses.length === 0) return callback(new ForbiddenTargetError(hostname, forbidden ?? 'unresolved'), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

async function resolveAll(hostname: string, settings: LookupSettings): Promise<LookupAddress[]> {
  if (hostname.toLowerCase() === 'localhost') return LOCALHOST;
  const resolver = new dns.Resolver({ timeout: settings.timeoutMs, tries: settings.tries });
  if (settings.servers && settings.servers.length > 0) resolver.setServers(settings.servers);
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const reasons = [v4, v6].map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : undefined));
    if (reasons.includes('ETIMEOUT')) throw new LookupTimeoutError(hostname);
    throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
  } finally {
    resolver.cancel();
  }
}
