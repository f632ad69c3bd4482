/** Makes a new signing secret: `whsec_` + base64 of 32 random bytes. */
export abstract class SigningSecretGenerator {
  abstract generate(): string;
}
