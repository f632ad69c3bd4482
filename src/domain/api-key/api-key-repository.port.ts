import { ApiKey } from './api-key';
import { ApiKeyScopes } from './api-key-scope';

/** The tenant an active key belongs to and what it may do, as the per-request lookup returns it. */
export interface ApiKeyPrincipal {
  apiKeyId: string;
  tenantId: string;
  scopes: ApiKeyScopes;
}

export abstract class ApiKeyRepository {
  /** Null when no key has this id; `forUpdate` locks it to the end of the unit of work. */
  abstract findById(id: string, options?: { forUpdate?: boolean }): Promise<ApiKey | null>;
  /** Null when no key has this hash or the key is revoked: revocation counts at once. */
  abstract findActiveByHash(keyHash: string): Promise<ApiKeyPrincipal | null>;
  /** A tenant's keys, newest first, revoked ones included (for the operator). */
  abstract listByTenant(tenantId: string): Promise<ApiKey[]>;
  abstract add(key: ApiKey): Promise<void>;
  /** Writes a loaded key's revocation, the one thing about a key that changes. */
  abstract save(key: ApiKey): Promise<void>;
}
