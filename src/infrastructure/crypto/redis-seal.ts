import { hkdfSync, timingSafeEqual } from 'node:crypto';
import { hmacSha256 } from './hmac-sha256';

/** What a seal protects; each gets a key of its own, so that one can never stand for another. */
export type SealPurpose = 'api-key-cache' | 'direct-attempt';

const SEAL_LENGTH = 22;

/**
 * MACs on what Redis holds for us and we later trust (decisions.md 180): HMAC-SHA256 with a key
 * derived from SECRETS_ENCRYPTION_KEY, which never enters Redis, truncated to 128 bits (22
 * characters of base64url). Each part goes in with its byte length first, so no two lists of
 * parts read the same.
 */
export class RedisSeal {
  private readonly mac: (message: string) => Buffer;

  constructor(secretsKey: Buffer, purpose: SealPurpose) {
    this.mac = hmacSha256(Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), `landing-customer-api/redis-seal/${purpose}/v1`, 32)));
  }

  of(parts: readonly (string | number | boolean | null | undefined)[]): string {
    let text = '';
    for (const part of parts) {
      const value = part === null || part === undefined ? '' : String(part);
      text += `${part === null || part === undefined ? '-' : Buffer.byteLength(value)}:${value}`;
    }
    return this.mac(text).toString('base64url').slice(0, SEAL_LENGTH);
  }

  holds(parts: readonly (string | number | boolean | null | undefined)[], seal: unknown): boolean {
    if (typeof seal !== 'string' || seal.length !== SEAL_LENGTH) return false;
    return timingSafeEqual(Buffer.from(this.of(parts)), Buffer.from(seal));
  }
}
