import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { IdempotencyOwner, IdempotencyRecord, IdempotencyStore } from '../../../application/idempotency/idempotency-store.port';
import { SecretCipher } from '../../crypto/secret-cipher';
import { sqlRows } from '../connection/sql-statement';

/** The key's transaction-level advisory lock: 64 bits of the tenant, API key and key (their ids have no space). */
const KEY_LOCK = `hashtextextended($1 || ' ' || $2 || ' ' || $3, 0)`;

/**
 * The hold is a transaction-level advisory lock (pg_try_advisory_xact_lock): PostgreSQL drops it
 * at the end of the transaction, and with the session when the connection dies, so nothing has
 * to release it and nothing can leave it behind. Only answered requests have a row. Kept answers
 * are encrypted like other secrets at rest: a replayed create can carry one (a webhook
 * subscription's signing secret).
 */
@Injectable()
export class SqlIdempotencyStore extends IdempotencyStore {
  constructor(
    private readonly em: EntityManager,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async hold({ tenantId, apiKeyId }: IdempotencyOwner, key: string, now: Date): Promise<IdempotencyRecord | null | 'busy'> {
    if (!this.em.getTransactionContext()) throw new Error('an Idempotency-Key is held by a transaction: call hold inside a unit of work');
    const [lock] = await sqlRows<{ held: boolean }>(this.em, `SELECT pg_try_advisory_xact_lock(${KEY_LOCK}) AS held`, [tenantId, apiKeyId, key]);
    if (!lock.held) return 'busy';
    // A statement of its own, after the lock: in READ COMMITTED it sees the answer of a holder
    // that committed while this one took the lock (one statement would read an older snapshot).
    const [kept] = await sqlRows<{ fingerprint: string; response_status: number; response_body: string }>(
      this.em,
      'SELECT fingerprint, response_status, response_body FROM idempotency_keys WHERE tenant_id = $1 AND api_key_id = $2 AND key = $3 AND expires_at > $4',
      [tenantId, apiKeyId, key, now],
    );
    return kept ? { fingerprint: kept.fingerprint, responseStatus: kept.response_status, responseBody: this.cipher.decrypt(kept.response_body) } : null;
  }

  async keep({ tenantId, apiKeyId }: IdempotencyOwner, key: string, record: IdempotencyRecord, now: Date, ttlMs: number): Promise<void> {
    // An expired answer under the same key is replaced; a live one cannot exist (hold found none).
    await sqlRows(
      this.em,
      `INSERT INTO idempotency_keys (tenant_id, api_key_id, key, fingerprint, response_status, response_body, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (tenant_id, api_key_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, response_status = excluded.response_status,
         response_body = excluded.response_body, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [tenantId, apiKeyId, key, record.fingerprint, record.responseStatus, this.cipher.encrypt(record.responseBody), now, new Date(now.getTime() + ttlMs)],
    );
    // Expired answers are removed a few at a time, now and then, instead of by a separate job.
    if (Math.random() < 0.01) {
      void sqlRows(this.em.fork(), 'DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at < $1 LIMIT 500)', [now]).catch(() => {});
    }
  }
}
