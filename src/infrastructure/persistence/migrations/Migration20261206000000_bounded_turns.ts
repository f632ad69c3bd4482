import { Migration } from '@mikro-orm/migrations';

/**
 * Turns read one index entry per day whatever a chain's length (issue 70, decisions.md 167).
 * The turns index held a page's holder and its waiting deliveries together, by version: to learn
 * whether the page's turn was held, a read went through every waiting delivery of the chain, and
 * a chain of a receiver down for a day made every relay round that touched it slower until it
 * hit the statement timeout. Now:
 * - webhook_deliveries_turns_idx holds only waiting deliveries, by (subscription, page, version,
 *   id): the lowest waiting version is its first entry, and the skip scan of stalled pages steps
 *   from page to page;
 * - webhook_deliveries_turn_holders_idx holds only the holders (at most one per page, a few when a
 *   turn is being passed): whether a turn is held is one probe. Its predicate is written as the
 *   statements write it (delivery-turns.sql.ts, HOLDER), so no other index is implied by them.
 * Both are partial over unfinished ordered deliveries: small, and empty for subscriptions that do
 * not order, so building them on the partitioned table is short.
 */
export class Migration20261206000000_bounded_turns extends Migration {
  override name = 'Migration20261206000000_bounded_turns';

  override up(): void {
    this.addSql('DROP INDEX IF EXISTS webhook_deliveries_turns_idx');
    this.addSql(`CREATE INDEX webhook_deliveries_turns_idx ON webhook_deliveries (subscription_id, order_key, order_seq, id)
                   WHERE order_key IS NOT NULL AND status = 'waiting'`);
    this.addSql(`CREATE INDEX webhook_deliveries_turn_holders_idx ON webhook_deliveries (subscription_id, order_key)
                   WHERE order_key IS NOT NULL AND status IN ('pending', 'sending', 'waiting') AND status <> 'waiting'`);
  }
}
