import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { IdempotencyKeyTakenOver, IdempotencyRecord, IdempotencyStore } from '../../application/idempotency/idempotency-store';
import { SecretCipher } from '../crypto/secret-cipher';
import { sqlQuery, sqlRows } from './sql-statement';

/**
 * Kept responses are encrypted like other secrets at rest: a replayed create can carry one (the
 * webhook subscription's signing secret).
 */
@Injectable()
export class SqlIdempotencyStore extends IdempotencyStore {
  constructor(
    private readonly em: EntityManager,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async reserve(tenantId: string, key: string, fingerprint: string, owner: string, now: Date, lockMs: number, ttlMs: number): Promise<IdempotencyRecord | null> {
    // A fresh fork: the reservation must commit on its own, before the request's own work, so
    // that a concurrent retry sees it (409) rather than racing it.
    const em = this.em.fork();
    const reserved = await sqlRows<{ key: string }>(
      em,
      `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, owner, state, locked_until, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'in_progress', $5, $6, $7)
       ON CONFLICT (tenant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, owner = excluded.owner, state = 'in_progress',
         locked_until = excluded.locked_until, created_at = excluded.created_at, expires_at = excluded.expires_at,
         response_status = NULL, response_body = NULL
       WHERE idempotency_keys.expires_at < excluded.created_at
          OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.locked_until < excluded.created_at
              AND idempotency_keys.fingerprint = excluded.fingerprint)
       RETURNING key`,
      [tenantId, key, fingerprint, owner, new Date(now.getTime() + lockMs), now, new Date(now.getTime() + ttlMs)],
    );
    // Expired keys are removed a few at a time, now and then, instead of by a separate job.
    if (Math.random() < 0.01) {
      void sqlRows(em.fork(), 'DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at < $1 LIMIT 500)', [now]).catch(() => {});
    }
    if (reserved.length > 0) return null;
    const rows = await sqlRows<{ fingerprint: string; state: 'in_progress' | 'completed'; response_status: number | null; response_body: string | null }>(
      em,
      'SELECT fingerprint, state, response_status, response_body FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
      [tenantId, key],
    );
    const row = rows[0];
    // Gone between the two statements (released by its request): treat as reserved by nobody.
    if (!row) return this.reserve(tenantId, key, fingerprint, owner, now, lockMs, ttlMs);
    return {
      fingerprint: row.fingerprint,
      state: row.state,
      responseStatus: row.response_status,
      responseBody: row.response_body === null ? null : this.cipher.decrypt(row.response_body),
    };
  }

  async complete(tenantId: string, key: string, owner: string, status: number, body: string): Promise<void> {
    // Only the holder writes the response. A retry's takeover that ran first has changed the
    // owner; one that comes later waits for this row's lock and then finds it completed.
    const result = await sqlQuery(
      this.em,
      `UPDATE idempotency_keys SET state = 'completed', response_status = $1, response_body = $2
       WHERE tenant_id = $3 AND key = $4 AND owner = $5 AND state = 'in_progress'`,
      [status, this.cipher.encrypt(body), tenantId, key, owner],
    );
    if (result.rowCount !== 1) throw new IdempotencyKeyTakenOver();
  }

  async release(tenantId: string, key: string, owner: string): Promise<void> {
    await sqlRows(this.em.fork(), `DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND owner = $3 AND state = 'in_progress'`, [tenantId, key, owner]);
  }
}
