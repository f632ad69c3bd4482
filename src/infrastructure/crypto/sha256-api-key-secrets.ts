import { hash, randomBytes } from 'node:crypto';
import { ApiKeySecrets } from '../../domain/api-key/api-key-secrets.port';

// `lp_` + base64url of 32 CSPRNG bytes (256 bits): a hash of such a key needs no salt or slow
// KDF, because it cannot be guessed; SHA-256 keeps the per-request lookup cheap and indexed.
const KEY_PREFIX = 'lp_';
const KEY_SHAPE = /^lp_[A-Za-z0-9_-]{43}$/;
const DISPLAY_LENGTH = KEY_PREFIX.length + 8;

export class Sha256ApiKeySecrets extends ApiKeySecrets {
  generate(): { plainKey: string; keyHash: string; displayPrefix: string } {
    const plainKey = KEY_PREFIX + randomBytes(32).toString('base64url');
    return { plainKey, keyHash: sha256(plainKey), displayPrefix: plainKey.slice(0, DISPLAY_LENGTH) };
  }

  hash(plainKey: string): string | null {
    return KEY_SHAPE.test(plainKey) ? sha256(plainKey) : null;
  }
}

// One-shot `hash`: every request hashes its key, and a Hash object per call costs more than the digest.
function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}
