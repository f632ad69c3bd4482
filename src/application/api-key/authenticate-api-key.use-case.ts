import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, ApiKeyRepository } from '../../domain/api-key/api-key-repository.port';
import { ApiKeySecrets } from '../../domain/api-key/api-key-secrets.port';

/**
 * Resolves a presented key to its tenant. No cache: one indexed lookup per request is what lets a
 * revocation count at once in every API process (decisions.md, Authentication).
 */
@Injectable()
export class AuthenticateApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly secrets: ApiKeySecrets,
  ) {}

  /** Null for a missing, malformed, unknown or revoked key: callers must not tell them apart. */
  async execute(presented: string | undefined): Promise<ApiKeyPrincipal | null> {
    if (!presented) return null;
    const hash = this.secrets.hash(presented);
    return hash ? this.keys.findActiveByHash(hash) : null;
  }
}
