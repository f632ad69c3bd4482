import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { IdempotencyOwner, IdempotencyRecord, IdempotencyStore } from '../../../application/idempotency/idempotency-store.port';
import { SecretCipher } from '../../crypto/secret-cipher';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';

type Owned = { tenantId: string; apiKeyId: string; key: string };

/** The key's transaction-level advisory lock: 64 bits of the tenant, API key and key (their ids have no space). */
const HOLD = typedStatement<Owned>()((arg) =>
  schema.selectNoFrom(sql<boolean>`pg_try_advisory_xact_lock(hashtextextended(${arg('tenantId')} || ' ' || ${arg('apiKeyId')} || ' ' || ${arg('key')}, 0))`.as('held')),
);
const KEPT = typedStatement<Owned & { now: Date }>()((arg) =>
  schema
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'response_status', 'response_body'])
    .where('tenant_id', '=', arg('tenantId'))
    .where('api_key_id', '=', arg('apiKeyId'))
    .where('key', '=', arg('key'))
    .where('expires_at', '>', arg('now')),
);
// An expired answer under the same key is replaced; a live one cannot exist (hold found none).
const KEEP = typedStatement<Owned & { fingerprint: string; status: number; body: string; now: Date; expiresAt: Date }>()((arg) =>
  schema
    .insertInto('idempotency_keys')
    .values({
      tenant_id: arg('tenantId'), api_key_id: arg('apiKeyId'), key: arg('key'), fingerprint: arg('fingerprint'),
      response_status: arg('status'), response_body: arg('body'), created_at: arg('now'), expires_at: arg('expiresAt'),
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'api_key_id', 'key']).doUpdateSet((eb) => ({
        fingerprint: eb.ref('excluded.fingerprint'),
        response_status: eb.ref('excluded.response_status'),
        response_body: eb.ref('excluded.response_body'),
        created_at: eb.ref('excluded.created_at'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    ),
);
// A few at a time, by ctid: no index on expires_at is kept for this.
const SWEEP = typedStatement<{ now: Date }>()((arg) =>
  schema
    .deleteFrom('idempotency_keys')
    .where(sql<string>`ctid`, 'in', (eb) => eb.selectFrom('idempotency_keys').select(sql<string>`ctid`.as('ctid')).where('expires_at', '<', arg('now')).limit(500)),
);

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
    const [lock] = await HOLD.rows(this.em, { tenantId, apiKeyId, key });
    if (!lock.held) return 'busy';
    // A statement of its own, after the lock: in READ COMMITTED it sees the answer of a holder
    // that committed while this one took the lock (one statement would read an older snapshot).
    const [kept] = await KEPT.rows(this.em, { tenantId, apiKeyId, key, now });
    return kept ? { fingerprint: kept.fingerprint, responseStatus: kept.response_status, responseBody: this.cipher.decrypt(kept.response_body) } : null;
  }

  async keep({ tenantId, apiKeyId }: IdempotencyOwner, key: string, record: IdempotencyRecord, now: Date, ttlMs: number): Promise<void> {
    await KEEP.count(this.em, {
      tenantId, apiKeyId, key, fingerprint: record.fingerprint, status: record.responseStatus, body: this.cipher.encrypt(record.responseBody),
      now, expiresAt: new Date(now.getTime() + ttlMs),
    });
    // Expired answers are removed a few at a time, now and then, instead of by a separate job.
    if (Math.random() < 0.01) {
      void SWEEP.count(this.em.fork(), { now }).catch(() => {});
    }
  }
}
