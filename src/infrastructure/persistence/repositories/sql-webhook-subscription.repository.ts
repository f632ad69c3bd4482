import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { EventType } from '../../../domain/events/event-catalogue';
import { WebhookSubscription } from '../../../domain/webhook/webhook-subscription';
import { WebhookSubscriptionRepository } from '../../../domain/webhook/webhook-subscription.repository';
import { SecretCipher } from '../../crypto/secret-cipher';

interface SubscriptionRow {
  id: string;
  tenant_id: string;
  url: string;
  events: EventType[];
  active: boolean;
  signing_secret_encrypted: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

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
    const rows = await this.em.execute<SubscriptionRow[]>(
      `SELECT * FROM webhook_subscriptions WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE' : ''}`,
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
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
      deletedAt: row.deleted_at ? new Date(row.deleted_at) : null,
    });
  }

  async save(s: WebhookSubscription): Promise<void> {
    // The secret is written once; updates never touch it.
    await this.em.execute(
      `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at, deleted_at)
       VALUES (?, ?, ?, ?::text[], ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, events = excluded.events, active = excluded.active,
         updated_at = excluded.updated_at, deleted_at = excluded.deleted_at`,
      [s.id, s.tenantId, s.url, `{${s.events.map((e) => `"${e}"`).join(',')}}`, s.active, this.cipher.encrypt(s.signingSecret), s.createdAt, s.updatedAt, s.deletedAt],
      'run',
    );
  }
}
