/** A POST already answered under an Idempotency-Key (decisions.md, Errors: 409 and 422). */
export interface IdempotencyRecord {
  fingerprint: string;
  responseStatus: number;
  responseBody: string;
}

/** Whose Idempotency-Key it is: the tenant's API key that sent it (decisions.md 175). */
export interface IdempotencyOwner {
  tenantId: string;
  apiKeyId: string;
}

/**
 * Idempotency-Keys and their kept answers, each of one API key. The key is held by the transaction of the request
 * that uses it, and by nothing else: the hold ends when that transaction does, whether it commits,
 * rolls back, or its connection dies with its process or its network (the database ends the
 * session). So a request that answered, a 503 included, or that crashed, never keeps a retry
 * waiting; and the kept answer commits in the same transaction as the change, so no retry can
 * make the change twice.
 */
export abstract class IdempotencyStore {
  /**
   * Must run inside the request's transaction (a unit of work). Holds the API key's key until that
   * transaction ends: `busy` when another live request holds it; else the kept answer of an
   * earlier request with it, unexpired at `now`, or null when there is none.
   */
  abstract hold(owner: IdempotencyOwner, key: string, now: Date): Promise<IdempotencyRecord | null | 'busy'>;
  /** In the same transaction as the change: keeps its answer under the key until `now + ttlMs`. */
  abstract keep(owner: IdempotencyOwner, key: string, record: IdempotencyRecord, now: Date, ttlMs: number): Promise<void>;
}
