import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AttemptResult, DeliveryClaim, DeliveryJob, DeliveryStore } from '../../../application/webhook/delivery.ports';
import { newTypeId } from '../../../domain/shared/type-id';
import { NextStep } from '../../../domain/webhook/retry-policy';
import { SecretCipher } from '../../crypto/secret-cipher';

/** A due delivery is left to its job this long before the sweeper re-enqueues it. */
const SWEEP_GRACE_MS = 1000;

/**
 * Deliveries in PostgreSQL. Workers have no request context, so every call works on its own
 * EntityManager fork. A claim is a conditional UPDATE on (status, attempt_count): whichever job
 * runs a given attempt first takes it, any duplicate finds nothing to take.
 */
@Injectable()
export class SqlDeliveryStore extends DeliveryStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async claim(deliveryId: string, attempt: number, now: Date, lockMs: number): Promise<DeliveryClaim | null> {
    // One statement: take the attempt and read what sending it needs (one round trip, not two).
    const rows = await this.orm.em.fork().execute<
      { tenant_id: string; subscription_id: string; event_id: string; event_type: string; url: string; active: boolean; deleted: boolean; secret: string; body: string }[]
    >(
      `WITH claimed AS (
         UPDATE webhook_deliveries SET status = 'sending', locked_until = ?, updated_at = ?
         WHERE id = ? AND attempt_count = ? AND (status = 'pending' OR (status = 'sending' AND locked_until < ?))
         RETURNING tenant_id, subscription_id, event_id, event_type)
       SELECT c.tenant_id, c.subscription_id, c.event_id, c.event_type, s.url, s.active, s.deleted_at IS NOT NULL AS deleted,
              s.signing_secret_encrypted AS secret, o.body
       FROM claimed c JOIN webhook_subscriptions s ON s.id = c.subscription_id JOIN outbox_events o ON o.id = c.event_id`,
      [new Date(now.getTime() + lockMs), now, deliveryId, attempt - 1, now],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    return {
      deliveryId,
      attempt,
      tenantId: row.tenant_id,
      eventId: row.event_id,
      eventType: row.event_type,
      body: row.body,
      subscription: { id: row.subscription_id, url: row.url, active: row.active && !row.deleted, signingSecret: this.secret(row.secret) },
    };
  }

  async record(claim: DeliveryClaim, result: AttemptResult, next: NextStep, at: Date): Promise<void> {
    const nextAttemptAt = next.status === 'pending' ? next.nextAttemptAt : null;
    // The attempt's log row and the delivery's next state in one statement: atomic without a
    // BEGIN/COMMIT round trip each.
    await this.orm.em.fork().execute(
      `WITH logged AS (
         INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, error, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (delivery_id, attempt_number) DO NOTHING)
       UPDATE webhook_deliveries SET status = ?, attempt_count = ?, next_attempt_at = ?, locked_until = NULL,
         last_status_code = ?, updated_at = ?, finished_at = ?
       WHERE id = ? AND attempt_count = ?`,
      [
        newTypeId('whatt', at.getTime()), claim.tenantId, claim.deliveryId, claim.subscription.id, claim.eventId, claim.eventType, claim.attempt, result.statusCode, result.durationMs, result.error, nextAttemptAt, at,
        next.status, claim.attempt, nextAttemptAt, result.statusCode, at, next.status === 'pending' ? null : at, claim.deliveryId, claim.attempt - 1,
      ],
      'run',
    );
  }

  /** Decrypted secrets by ciphertext: AES-GCM is cheap, but not free at thousands per second. */
  private readonly secrets = new Map<string, string>();
  private secret(stored: string): string {
    let plain = this.secrets.get(stored);
    if (plain === undefined) {
      plain = this.cipher.decrypt(stored);
      if (this.secrets.size > 10_000) this.secrets.clear();
      this.secrets.set(stored, plain);
    }
    return plain;
  }

  async cancel(claim: DeliveryClaim, at: Date): Promise<void> {
    await this.orm.em.fork().execute(
      `UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL, next_attempt_at = NULL, updated_at = ?, finished_at = ?
       WHERE id = ? AND status = 'sending'`,
      [at, at, claim.deliveryId],
      'run',
    );
  }

  async findStranded(now: Date, limit: number): Promise<DeliveryJob[]> {
    const rows = await this.orm.em.fork().execute<{ id: string; attempt_count: number }[]>(
      `SELECT id, attempt_count FROM webhook_deliveries
       WHERE (status = 'pending' AND next_attempt_at <= ?) OR (status = 'sending' AND locked_until < ?)
       ORDER BY next_attempt_at LIMIT ?`,
      [new Date(now.getTime() - SWEEP_GRACE_MS), now, limit],
    );
    return rows.map((row) => ({ deliveryId: row.id, attempt: row.attempt_count + 1, delayMs: 0 }));
  }
}
