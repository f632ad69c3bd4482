import { AggregateRoot, restored, StateOf } from '../shared/aggregate-root';
import { newTypeId } from '../shared/type-id';
import { ApiKeyScopes } from './api-key-scope';

/**
 * A tenant's credential. The plain key exists only in the create response; what is kept is its
 * SHA-256 hash (for the per-request lookup) and a short display prefix (for people to tell keys
 * apart). Its scopes (api-key-scope.ts) are fixed at issue: null is full access. Revocation is final.
 */
export class ApiKey extends AggregateRoot<StateOf<ApiKey>> {
  private constructor(
    readonly id: string,
    readonly tenantId: string,
    readonly keyHash: string,
    readonly displayPrefix: string,
    readonly scopes: ApiKeyScopes,
    readonly createdAt: Date,
    readonly revokedAt: Date | null,
  ) {
    super();
  }

  static issue(tenantId: string, keyHash: string, displayPrefix: string, now: Date, scopes: ApiKeyScopes = null): ApiKey {
    return new ApiKey(newTypeId('apikey'), tenantId, keyHash, displayPrefix, scopes, now, null);
  }

  static restore(state: StateOf<ApiKey>): ApiKey {
    return restored(ApiKey.prototype, state);
  }

  isActive(): boolean {
    return this.revokedAt === null;
  }

  /** Idempotent: revoking a revoked key keeps the first revocation time. */
  revoke(now: Date): void {
    this.change({ revokedAt: this.revokedAt ?? now });
  }
}
