/** A POST already seen under an Idempotency-Key (decisions.md, Errors: 409 and 422). */
export interface IdempotencyRecord {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
}

/**
 * How long a request holds its key before a retry may take it over (it crashed, or hangs). Every
 * database statement is bounded well below it (DATABASE_STATEMENT_TIMEOUT_MS), so a live request
 * is rarely overtaken; when it is, its completion fails (IdempotencyKeyTakenOver).
 */
export const IDEMPOTENCY_KEY_HOLD_MS = 60_000;

/** The request's hold on its key was taken over by a retry: its work must roll back. */
export class IdempotencyKeyTakenOver extends Error {
  constructor() {
    super('the Idempotency-Key was taken over by a retry');
  }
}

export abstract class IdempotencyStore {
  /**
   * Reserves the tenant's key for the request `owner` (unique per request) with this fingerprint.
   * Returns null when reserved (new, expired, or held past its hold by a request with the same
   * fingerprint), else the live record that holds the key.
   */
  abstract reserve(tenantId: string, key: string, fingerprint: string, owner: string, now: Date, lockMs: number, ttlMs: number): Promise<IdempotencyRecord | null>;
  /**
   * Stores the response; meant to run in the transaction of the change itself. Throws
   * IdempotencyKeyTakenOver when `owner` no longer holds the key.
   */
  abstract complete(tenantId: string, key: string, owner: string, status: number, body: string): Promise<void>;
  /** Frees the key after a request that changed nothing (an error), if `owner` still holds it. */
  abstract release(tenantId: string, key: string, owner: string): Promise<void>;
}
