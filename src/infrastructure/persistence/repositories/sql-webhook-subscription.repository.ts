import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription-repository.port';
import { SecretCipher } from '../../crypto/secret-cipher';
import { StoredPreviousSecret } from '../../crypto/decrypted-secrets';
import type { DeliveryFilter } from '../../../domain/webhook/delivery-filter';
import { healthOf, paceColumns, paceOf } from '../stored/webhook-subscription-columns';
import { requireTransaction } from '../connection/sql-statement';
import { touched } from '../connection/after-commit';
import { outboxParams, recordedEvents, writeAggregates } from '../outbox/outbox.writer';
import { sql } from 'kysely';
import { schema } from '../typed/database';
import { statementVariants, typedStatement } from '../typed/statement';
import { ADD_WITHIN_LIMIT, SAVE } from './subscription-writes.sql';

type Keyed = { id: string; tenantId: string };
const FIND = statementVariants((lock: 'plain' | 'for update') =>
  typedStatement<Keyed>()((arg) =>
    schema
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .select(paceColumns())
      .where('id', '=', arg('id'))
      .where('tenant_id', '=', arg('tenantId'))
      .where('deleted_at', 'is', null)
      .$if(lock === 'for update', (qb) => qb.forUpdate()),
  ),
);
const HOLD_LIVE = typedStatement<Keyed>()((arg) =>
  schema.selectFrom('webhook_subscriptions').select('events').where('id', '=', arg('id')).where('tenant_id', '=', arg('tenantId')).where('deleted_at', 'is', null).forShare(),
);
// NO KEY UPDATE: other writes that only reference the tenant are not held up.
const TENANT_TURN = typedStatement<{ tenantId: string }>()((arg) =>
  schema.selectFrom('tenants').select(sql<number>`1`.as('one')).where('id', '=', arg('tenantId')).forNoKeyUpdate(),
);

/**
 * The signing secret each subscription was loaded or added with, whichever repository instance
 * did it: `save` encrypts the secrets again only when a rotation changed it.
 */
const loadedSecrets = new WeakMap<WebhookSubscription, string>();

/** Typed statements, and SQL text for the two writes (subscription-writes.sql.ts); the secret columns are encrypted on the way in and out. */
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
    const [row] = await FIND(options.forUpdate ? 'for update' : 'plain').rows(this.em, { id, tenantId });
    if (!row) return null;
    const subscription = WebhookSubscription.restore({
      id: row.id,
      tenantId: row.tenant_id,
      url: row.url,
      events: row.events,
      active: row.active,
      signingSecret: this.cipher.decrypt(row.signing_secret_encrypted),
      previousSecrets: (row.previous_signing_secrets as StoredPreviousSecret[]).map((old) => ({ secret: this.cipher.decrypt(old.secret), expiresAt: new Date(old.expiresAt) })),
      rateLimitPerSecond: row.rate_limit_per_second,
      filter: row.delivery_filter as DeliveryFilter | null,
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
    const [row] = await HOLD_LIVE.rows(this.em, { id, tenantId });
    return row?.events ?? null;
  }

  async add(s: WebhookSubscription, limit: number): Promise<boolean> {
    requireTransaction(this.em, 'adding a subscription within the limit');
    // Creations for one tenant take turns on its row (NO KEY UPDATE: other writes that only
    // reference the tenant are not held up) until the unit of work commits; the count is then a
    // new statement, which sees what the one before committed.
    await TENANT_TURN.rows(this.em, { tenantId: s.tenantId });
    const inserted = await writeAggregates<{ id: string }>(
      this.em,
      [s],
      ADD_WITHIN_LIMIT,
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
      SAVE,
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
