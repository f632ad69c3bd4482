import { isIP } from 'node:net';
import { TargetPolicy } from '../../application/webhook/subscriptions/target-policy.port';
import { InvalidValueError } from '../../domain/shared/domain-error';
import { forbiddenClass } from './address-policy';

export class AddressTargetPolicy extends TargetPolicy {
  constructor(private readonly allowPrivateTargets: boolean) {
    super();
  }

  check(url: string): void {
    if (this.allowPrivateTargets) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const cls = isIP(host) ? forbiddenClass(host) : host === 'localhost' || host.endsWith('.localhost') ? 'loopback' : null;
    if (cls) throw new InvalidValueError('url', `must not point to a ${cls} address`);
  }
}
