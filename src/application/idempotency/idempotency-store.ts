/** A POST already seen under an Idempotency-Key (decisions.md, Errors: 409 and 422). */
export interface IdempotencyRecord {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
}

export abstract class IdempotencyStore {
  /**
   * Reserves the tenant's key for a request with this fingerprint. Returns null when reserved
   * (new, expired, or abandoned by a crashed request with the same fingerprint), else the live
   * record that holds the key.
   */
  abstract reserve(tenantId: string, key: string, fingerprint: string, now: Date, lockMs: number, ttlMs: number): Promise<IdempotencyRecord | null>;
  /** Stores the response; meant to run in the transaction of the change itself. */
  abstract complete(tenantId: string, key: string, status: number, body: string): Promise<void>;
  /** Frees the key after a request that changed nothing (an error), so it may be retried. */
  abstract release(tenantId: string, key: string): Promise<void>;
}
