import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { SecretCipher } from '../../crypto/secret-cipher';
import { StoredPreviousSecret } from '../../crypto/decrypted-secrets';
import { healthOf, PACE_COLUMNS, paceOf, SubscriptionRow } from '../stored/webhook-subscription.row';
import { requireTransaction, sqlRows } from '../connection/sql-statement';
import { touched } from '../connection/after-commit';
import { outboxInsert, outboxParams, recordedEvents, writeAggregates } from '../outbox/outbox.writer';

/**
 * The signing secret each subscription was loaded or added with, whichever repository instance
 * did it: `save` encrypts the secrets again only when a rotation changed it.
 */
const loadedSecrets = new WeakMap<WebhookSubscription, string>();

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
    const subscription = WebhookSubscription.restore({
      id: row.id,
      tenantId: row.tenant_id,
      url: row.url,
      events: row.events,
      active: row.active,
      signingSecret: this.cipher.decrypt(row.signing_secret_encrypted),
      previousSecrets: row.previous_signing_secrets.map((old) => ({ secret: this.cipher.decrypt(old.secret), expiresAt: new Date(old.expiresAt) })),
      rateLimitPerSecond: row.rate_limit_per_second,
      filter: row.delivery_filter,
      ordering: row.ordering,
      health: healthOf(row),
      healthNotices: { failingSentAt: row.health_failing_sent_at === null ? null : new Date(row.health_failing_sent_at), recoveryOwed: row.health_recovery_owed },
      pace: paceOf(row),
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
      deletedAt: row.deleted_at ? new Date(row.deleted_at) : null,
    });
    loadedSecrets.set(subscription, subscription.signingSecret);
    return touched(subscription);
  }

  async holdLive(tenantId: string, id: string): Promise<readonly string[] | null> {
    requireTransaction(this.em, 'holding a subscription');
    const rows = await sqlRows<{ events: string[] }>(this.em, 'SELECT events FROM webhook_subscriptions WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL FOR SHARE', [id, tenantId]);
    return rows[0]?.events ?? null;
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
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at, deleted_at, rate_limit_per_second, delivery_filter, ordering)
         SELECT $1, $2, $3, $4::text[], $5, $6, $7, $8, $9, $11, $12::jsonb, $13
         WHERE (SELECT count(*) FROM webhook_subscriptions WHERE tenant_id = $2 AND deleted_at IS NULL) < $10
         RETURNING id`,
        [s.id, s.tenantId, s.url, s.events, s.active, this.cipher.encrypt(s.signingSecret), s.createdAt, s.updatedAt, s.deletedAt, limit, s.rateLimitPerSecond, s.filter === null ? null : JSON.stringify(s.filter), s.ordering],
    );
    loadedSecrets.set(s, s.signingSecret);
    return inserted.length === 1;
  }

  /**
   * Writes everything about a loaded subscription that can change, and the events it recorded, in
   * one statement (issue 43: one `save`): what a PATCH or DELETE changed, its delivery state (the
   * worker's: health, notices, pace; decisions.md 128) and, only when a rotation replaced the
   * signing secret, its secrets, encrypted as at creation. Unchanged secrets are not encrypted
   * again: a new ciphertext would move the target version the worker keeps targets by (decision
   * 125). Old secrets the aggregate dropped as expired are removed from the stored list as they
   * are (told apart by their expiry). Every caller holds the row lock, so the row is the one loaded.
   */
  async save(s: WebhookSubscription): Promise<void> {
    requireTransaction(this.em, 'saving a subscription loaded for update');
    const h = s.health;
    const rotated = loadedSecrets.get(s) !== s.signingSecret;
    const previous: StoredPreviousSecret[] = s.previousSecrets.map((old) => ({ secret: this.cipher.encrypt(old.secret), expiresAt: old.expiresAt.toISOString() }));
    await writeAggregates(
      this.em,
      [s],
      `WITH subscription AS (
         UPDATE webhook_subscriptions SET url = $3, events = $4::text[], active = $5, updated_at = $6, deleted_at = $7, rate_limit_per_second = $8, delivery_filter = $9::jsonb, ordering = $26,
           consecutive_failures = $10, last_success_at = $11, last_failure_at = $12, disable_at = $13, disabled_reason = $14, breaker_probe_at = $15, breaker_probes = $16,
           health_failing_sent_at = $17, health_recovery_owed = $18, send_not_before = to_timestamp($19::float8 / 1000), held_release_at = $20, breaker_probe_delivery_id = $21,
           signing_secret_encrypted = coalesce($22, signing_secret_encrypted),
           previous_signing_secrets = coalesce($23::jsonb, (SELECT coalesce(jsonb_agg(old ORDER BY n), '[]'::jsonb)
             FROM jsonb_array_elements(previous_signing_secrets) WITH ORDINALITY AS kept(old, n) WHERE old->>'expiresAt' = ANY($24::text[])))
         WHERE id = $1 AND tenant_id = $2 RETURNING 1)
       ${outboxInsert(25, { after: 'subscription' })}`,
      [
        s.id, s.tenantId, s.url, s.events, s.active, s.updatedAt, s.deletedAt, s.rateLimitPerSecond, s.filter === null ? null : JSON.stringify(s.filter),
        h.consecutiveFailures, h.lastSuccessAt, h.lastFailureAt, h.disableAt, h.disabledReason, h.nextProbeAt, h.probesMade,
        s.healthNotices.failingSentAt, s.healthNotices.recoveryOwed, s.pace.notBeforeMs, s.pace.nextReleaseAt, s.pace.lastProbeId,
        rotated ? this.cipher.encrypt(s.signingSecret) : null, rotated ? JSON.stringify(previous) : null, s.previousSecrets.map((old) => old.expiresAt.toISOString()),
        ...outboxParams(recordedEvents(s)),
        s.ordering,
      ],
    );
    loadedSecrets.set(s, s.signingSecret);
  }
}
