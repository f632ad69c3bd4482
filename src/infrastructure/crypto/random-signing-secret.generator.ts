import { randomBytes } from 'node:crypto';
import { SigningSecretGenerator } from '../../domain/webhook/signing-secret-generator.port';

/** `whsec_` + base64 of 32 CSPRNG bytes (decisions.md, Webhooks; the Standard Webhooks format). */
export class RandomSigningSecretGenerator extends SigningSecretGenerator {
  generate(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }
}
