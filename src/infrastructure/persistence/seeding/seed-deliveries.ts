import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { newTypeId } from '../../../domain/shared/type-id';
import { SecretCipher } from '../../crypto/secret-cipher';
import { sqlQuery } from '../connection/sql-statement';
import type { SeedBatches } from './seed-batches';

// SQL text (decisions.md 184): the bench's webhook history, a batch of deliveries per `unnest`
// statement, as the rest of the bulk seed (sql-bulk-seeder.ts).

/** Of every 1,000 seeded deliveries: this many failed, this many cancelled, the rest delivered. */
const FAILED_PER_MILLE = 15;
const CANCELLED_PER_MILLE = 5;
/** One delivery in this many is of a brand's event; the others of a page's. */
const BRAND_EVERY = 10;

/**
 * The sample tenant's webhook history for the delivery search's benchmark: two subscriptions that
 * are turned off (the bench's worker never sends to them) and `count` deliveries over the last 24
 * hours, all final (nothing for a worker or the sweeper to pick up): 98 % delivered, 1.5 % failed,
 * 0.5 % cancelled, one in ten about a brand, the others about the tenant's pages.
 */
export async function seedDeliveries(
  em: EntityManager,
  cipher: SecretCipher,
  input: { tenantId: string; pageIds: string[]; brandIds: string[]; count: number; now: Date },
  batches: SeedBatches,
): Promise<{ subscriptionIds: string[] }> {
  const { tenantId, pageIds, brandIds, count, now } = input;
  const subscriptionIds = [newTypeId('whsub'), newTypeId('whsub')];
  for (const [i, id] of subscriptionIds.entries()) {
    await sqlQuery(em,
      `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at)
       VALUES ($1, $2, $3, ARRAY['page.version.created', 'brand.updated'], false, $4, $5, $5)`,
      [id, tenantId, `https://hooks.example/bench-${i}`, cipher.encrypt(`whsec_${randomBytes(24).toString('base64')}`), now],
    );
  }
  const spreadMs = 24 * 3_600_000;
  await batches('webhook deliveries', count, async (from, to) => {
    const n = to - from;
    const at = Array.from({ length: n }, (_, i) => now.getTime() - Math.floor(((count - from - i) * spreadMs) / count));
    const brand = (i: number) => brandIds.length > 0 && (from + i) % BRAND_EVERY === 0;
    const perMille = (i: number) => ((from + i) * 7919) % 1000;
    await sqlQuery(em,
      `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, last_status_code, created_at, updated_at, finished_at, subject_id)
       SELECT d.id, $1, d.subscription_id, d.event_id, d.event_type, d.status, d.attempts, d.code, d.at, d.at, d.at, d.subject_id
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::timestamptz[], $10::text[])
         AS d(id, subscription_id, event_id, event_type, status, attempts, code, at, subject_id)`,
      [
        tenantId,
        at.map((ms) => newTypeId('whdlv', ms)),
        at.map((_, i) => subscriptionIds[(from + i) % 2]),
        at.map((ms) => newTypeId('evt', ms - 50)),
        at.map((_, i) => (brand(i) ? 'brand.updated' : 'page.version.created')),
        at.map((_, i) => (perMille(i) < FAILED_PER_MILLE ? 'failed' : perMille(i) < FAILED_PER_MILLE + CANCELLED_PER_MILLE ? 'cancelled' : 'delivered')),
        at.map((_, i) => (perMille(i) < FAILED_PER_MILLE ? 5 : perMille(i) < FAILED_PER_MILLE + CANCELLED_PER_MILLE ? 0 : 1)),
        at.map((_, i) => (perMille(i) < FAILED_PER_MILLE ? 500 : perMille(i) < FAILED_PER_MILLE + CANCELLED_PER_MILLE ? null : 204)),
        at.map((ms) => new Date(ms)),
        at.map((_, i) => (brand(i) ? brandIds[(from + i) % brandIds.length] : pageIds[(from + i) % pageIds.length])),
      ],
    );
  });
  return { subscriptionIds };
}
