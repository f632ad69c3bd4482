import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { SecretCipher } from '../../crypto/secret-cipher';
import { StoredPreviousSecret } from '../../crypto/decrypted-secrets';
import { healthOf, PACE_COLUMNS, paceOf, SubscriptionRow } from '../stored/webhook-subscription.row';
import { requireTransaction, sqlRows } from '../connection/sql-statement';
import { outboxInsert, outboxParams, recordedEvents, writeAggregates } from '../outbox/outbox.writer';

/** Plain SQL rather than an entity mapping: the secret column is encrypted on the way in and out. */
@Injectable()
export class SqlWebhookSubscriptionRepository extends WebhookSubscriptionRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<WebhookSubscription | null> {
    if (options.forUpdate) requireTransaction(this.em, 'a subscription read for update');
    const rows = await sqlRows<SubscriptionRow>(
      this.em,
      `SELECT *, ${PACE_COLUMNS} FROM webhook_subscriptions WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [id, tenantId],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    return WebhookSubscription.restore({
      id: row.id,
      tenantId: row.tenant_id,
      url: row.url,
      events: row.events,
      active: row.active,
      signingSecret: this.cipher.decrypt(row.signing_secret_encrypted),
      previousSecrets: row.previous_signing_secrets.map((old) => ({ secret: this.cipher.decrypt(old.secret), expiresAt: new Date(old.expiresAt) })),
      rateLimitPerSecond: row.rate_limit_per_second,
      filter: row.delivery_filter,
      health: healthOf(row),
      healthNotices: { failingSentAt: row.health_failing_sent_at === null ? null : new Date(row.health_failing_sent_at), recoveryOwed: row.health_recovery_owed },
      pace: paceOf(row),
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
      deletedAt: row.deleted_at ? new Date(row.deleted_at) : null,
    });
  }

  async holdLive(tenantId: string, id: string): Promise<boolean> {
    requireTransaction(this.em, 'holding a subscription');
    const rows = await sqlRows(this.em, 'SELECT 1 FROM webhook_subscriptions WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL FOR SHARE', [id, tenantId]);
    return rows.length === 1;
  }

  async add(s: WebhookSubscription, limit: number): Promise<boolean> {
    requireTransaction(this.em, 'adding a subscription within the limit');
    // Creations for one tenant take turns on its row (NO KEY UPDATE: other writes that only
    // reference the tenant are not held up) until the unit of work commits; the count is then a
    // new statement, which sees what the one before committed.
    await sqlRows(this.em, 'SELECT 1 FROM tenants WHERE id = $1 FOR NO KEY UPDATE', [s.tenantId]);
    const inserted = await writeAggregates<{ id: string }>(
        this.em,
        [s],
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at, deleted_at, rate_limit_per_second, delivery_filter)
         SELECT $1, $2, $3, $4::text[], $5, $6, $7, $8, $9, $11, $12::jsonb
         WHERE (SELECT count(*) FROM webhook_subscriptions WHERE tenant_id = $2 AND deleted_at IS NULL) < $10
         RETURNING id`,
        [s.id, s.tenantId, s.url, s.events, s.active, this.cipher.encrypt(s.signingSecret), s.createdAt, s.updatedAt, s.deletedAt, limit, s.rateLimitPerSecond, s.filter === null ? null : JSON.stringify(s.filter)],
    );
    return inserted.length === 1;
  }

  async saveDeliveryState(s: WebhookSubscription): Promise<void> {
    const h = s.health;
    await writeAggregates(
      this.em,
      [s],
      `WITH subscription AS (
         UPDATE webhook_subscriptions SET consecutive_failures = $3, last_success_at = $4, last_failure_at = $5, disable_at = $6, disabled_reason = $7,
           breaker_probe_at = $8, breaker_probes = $9, active = $10, updated_at = $11, health_failing_sent_at = $12, health_recovery_owed = $13,
           send_not_before = to_timestamp($14::float8 / 1000), held_release_at = $15, breaker_probe_delivery_id = $16
         WHERE id = $1 AND tenant_id = $2 RETURNING 1)
       ${outboxInsert(17, { after: 'subscription' })}`,
      [
        s.id, s.tenantId, h.consecutiveFailures, h.lastSuccessAt, h.lastFailureAt, h.disableAt, h.disabledReason, h.nextProbeAt, h.probesMade, s.active, s.updatedAt,
        s.healthNotices.failingSentAt, s.healthNotices.recoveryOwed, s.pace.notBeforeMs, s.pace.nextReleaseAt, s.pace.lastProbeId,
        ...outboxParams(recordedEvents(s)),
      ],
    );
  }

  async saveSecrets(s: WebhookSubscription): Promise<void> {
    const previous: StoredPreviousSecret[] = s.previousSecrets.map((old) => ({ secret: this.cipher.encrypt(old.secret), expiresAt: old.expiresAt.toISOString() }));
    await writeAggregates(
      this.em,
      [s],
      `UPDATE webhook_subscriptions SET signing_secret_encrypted = $1, previous_signing_secrets = $2::jsonb, updated_at = $3 WHERE id = $4 AND tenant_id = $5`,
      [this.cipher.encrypt(s.signingSecret), JSON.stringify(previous), s.updatedAt, s.id, s.tenantId],
    );
  }

  async save(s: WebhookSubscription): Promise<void> {
    // Secrets change only by a rotation (saveSecrets): a PATCH never re-encrypts them. Old
    // secrets the aggregate dropped as expired are removed from the stored list as they are
    // (told apart by their expiry; the caller holds the row lock, so the list is the one loaded).
    await writeAggregates(
      this.em,
      [s],
      `UPDATE webhook_subscriptions SET url = $1, events = $2::text[], active = $3, updated_at = $4, deleted_at = $5, rate_limit_per_second = $9,
         consecutive_failures = $10, disable_at = $11, disabled_reason = $12, breaker_probe_at = $13, breaker_probes = $14,
         delivery_filter = $15::jsonb,
         previous_signing_secrets = (SELECT coalesce(jsonb_agg(old ORDER BY n), '[]'::jsonb)
           FROM jsonb_array_elements(previous_signing_secrets) WITH ORDINALITY AS kept(old, n) WHERE old->>'expiresAt' = ANY($8::text[]))
       WHERE id = $6 AND tenant_id = $7`,
      [
        s.url, s.events, s.active, s.updatedAt, s.deletedAt, s.id, s.tenantId, s.previousSecrets.map((old) => old.expiresAt.toISOString()), s.rateLimitPerSecond,
        s.health.consecutiveFailures, s.health.disableAt, s.health.disabledReason, s.health.nextProbeAt, s.health.probesMade,
        s.filter === null ? null : JSON.stringify(s.filter),
      ],
    );
  }
}
