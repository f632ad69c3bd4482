import { Migration } from '@mikro-orm/migrations';

/**
 * Bounds on what a tenant's requests can cost (issue 27).
 * - The tenant's manual deliveries waiting to be sent, counted by every redeliver, recover and
 *   test request (WEBHOOK_MANUAL_PENDING_MAX): an index of those rows only, small by that bound.
 * - A page's UTM values by sessions overall, most first: a page's statistics choose each kind's
 *   top values among the first UTM_TOP_CANDIDATES of them (docs/decisions.md 86), so their cost
 *   does not grow with the number of values visitors gave it.
 */
export class Migration20261125090000_abuse_bounds extends Migration {
  override name = 'Migration20261125090000_abuse_bounds';

  override up(): void {
    this.addSql(`CREATE INDEX webhook_deliveries_manual_waiting_idx ON webhook_deliveries (tenant_id)
                 WHERE manual_id IS NOT NULL AND status IN ('pending', 'sending')`);
    this.addSql(`CREATE INDEX page_utm_values_top_idx ON page_utm_values (page_id, kind, total DESC, value)`);
  }
}
