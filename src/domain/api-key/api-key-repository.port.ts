import { ApiKey } from './api-key';

/** The tenant an active key belongs to, as the per-request lookup returns it. */
export interface ApiKeyPrincipal {
  apiKeyId: string;
  tenantId: string;
}

export abstract class ApiKeyRepository {
  /** Null when no key has this id; `forUpdate` locks it to the end of the unit of work. */
  abstract findById(id: string, options?: { forUpdate?: boolean }): Promise<ApiKey | null>;
  /** Null when no key has this hash or the key is revoked: revocation counts at once. */
  abstract findActiveByHash(keyHash: string): Promise<ApiKeyPrincipal | null>;
  abstract save(key: ApiKey): Promise<void>;
}
