import { hash, randomBytes } from 'node:crypto';
import { PortalSecrets } from '../../domain/portal/portal-secrets.port';

// `lpl_` (a link) or `lps_` (a session) + base64url of 32 CSPRNG bytes: as API keys
// (sha256-api-key-secrets.ts), unguessable, so a plain SHA-256 is the hash kept. The prefixes tell
// a leaked token's kind at a glance (and secret scanners can match them).
const PREFIX = { link: 'lpl_', session: 'lps_' } as const;
const SHAPE = { link: /^lpl_[A-Za-z0-9_-]{43}$/, session: /^lps_[A-Za-z0-9_-]{43}$/ } as const;

export class Sha256PortalSecrets extends PortalSecrets {
  generate(kind: 'link' | 'session'): { token: string; hash: string } {
    const token = PREFIX[kind] + randomBytes(32).toString('base64url');
    return { token, hash: hash('sha256', token, 'hex') };
  }

  hash(kind: 'link' | 'session', token: string): string | null {
    return SHAPE[kind].test(token) ? hash('sha256', token, 'hex') : null;
  }
}
