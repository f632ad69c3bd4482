import { Injectable } from '@nestjs/common';
import { PreviousSigningSecret } from '../../domain/webhook/signing-secrets';
import { SecretCipher } from './secret-cipher';

/** A rotated-out secret as stored: encrypted, with its expiry. */
export interface StoredPreviousSecret {
  secret: string;
  expiresAt: string;
}

/**
 * Signing secrets decrypted once per ciphertext in a worker: AES-GCM is cheap, but not free at
 * thousands of attempts a second. Bounded: past 10,000 ciphertexts it starts again.
 */
@Injectable()
export class DecryptedSecrets {
  private readonly plain = new Map<string, string>();

  constructor(private readonly cipher: SecretCipher) {}

  secret(stored: string): string {
    let plain = this.plain.get(stored);
    if (plain === undefined) {
      plain = this.cipher.decrypt(stored);
      if (this.plain.size > 10_000) this.plain.clear();
      this.plain.set(stored, plain);
    }
    return plain;
  }

  previous(stored: readonly StoredPreviousSecret[]): PreviousSigningSecret[] {
    return stored.map((old) => ({ secret: this.secret(old.secret), expiresAt: new Date(old.expiresAt) }));
  }
}
