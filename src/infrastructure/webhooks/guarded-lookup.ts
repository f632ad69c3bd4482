import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { forbiddenClass } from './address-policy';

/** A refused target: the message names the class, never more of the URL than the host. */
export class ForbiddenTargetError extends Error {
  readonly code = 'EFORBIDDENTARGET';
  constructor(host: string, cls: string) {
    super(`forbidden target address for ${host} (${cls})`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves the host and refuses it when any of its addresses
 * is forbidden. The socket then connects to exactly the addresses checked here: there is no second
 * resolution, so no DNS-rebinding window between the check and the connection.
 */
export function guardedLookup(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
    if (error) return callback(error, []);
    const forbidden = addresses.map((a) => forbiddenClass(a.address)).find((cls) => cls !== null);
    if (forbidden || addresses.length === 0) return callback(new ForbiddenTargetError(hostname, forbidden ?? 'unresolved'), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
