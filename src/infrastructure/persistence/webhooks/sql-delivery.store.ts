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
    const em = this.orm.em.fork();
    const claimed = await em.execute<{ tenant_id: string; subscription_id: string; event_id: string; event_type: string }[]>(
      `UPDATE webhook_deliveries SET status = 'sending', locked_until = ?, updated_at = ?
       WHERE id = ? AND attempt_count = ? AND (status = 'pending' OR (status = 'sending' AND locked_until < ?))
       RETURNING tenant_id, subscription_id, event_id, event_type`,
      [new Date(now.getTime() + lockMs), now, deliveryId, attempt - 1, now],
    );
    if (claimed.length === 0) return null;
    const { tenant_id, subscription_id, event_id, event_type } = claimed[0];
    const rows = await em.execute<{ url: string; active: boolean; deleted: boolean; secret: string; body: string }[]>(
      `SELECT s.url, s.active, s.deleted_at IS NOT NULL AS deleted, s.signing_secret_encrypted AS secret, o.body
       FROM webhook_subscriptions s, outbox_events o WHERE s.id = ? AND o.id = ?`,
      [subscription_id, event_id],
    );
    const row = rows[0];
    return {
      deliveryId,
      attempt,
      tenantId: tenant_id,
      eventId: event_id,
      eventType: event_type,
      body: row.body,
      subscription: { id: subscription_id, url: row.url, active: row.active && !row.deleted, signingSecret: this.cipher.decrypt(row.secret) },
    };
  }

  async record(claim: DeliveryClaim, result: AttemptResult, next: NextStep, at: Date): Promise<void> {
    const nextAttemptAt = next.status === 'pending' ? next.nextAttemptAt : null;
    await this.orm.em.fork().transactional(async (em) => {
      await em.execute(
        `INSERT INTO webhook_delivery_attempts (id, tenant_id, delivery_id, subscription_id, event_id, event_type, attempt_number, status_code, duration_ms, error, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (delivery_id, attempt_number) DO NOTHING`,
        [newTypeId('whatt', at.getTime()), claim.tenantId, claim.deliveryId, claim.subscription.id, claim.eventId, claim.eventType, claim.attempt, result.statusCode, result.durationMs, result.error, nextAttemptAt, at],
        'run',
      );
      await em.execute(
        `UPDATE webhook_deliveries SET status = ?, attempt_count = ?, next_attempt_at = ?, locked_until = NULL,
           last_status_code = ?, updated_at = ?, finished_at = ?
         WHERE id = ? AND attempt_count = ?`,
        [next.status, claim.attempt, nextAttemptAt, result.statusCode, at, next.status === 'pending' ? null : at, claim.deliveryId, claim.attempt - 1],
        'run',
      );
    });
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
