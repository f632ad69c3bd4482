import { Migration20261122000000_foundation } from './Migration20261122000000_foundation';
import { Migration20261122010000_pages } from './Migration20261122010000_pages';
import { Migration20261122020000_webhooks } from './Migration20261122020000_webhooks';
import { Migration20261122030000_idempotency } from './Migration20261122030000_idempotency';
import { Migration20261122040000_utm_summaries } from './Migration20261122040000_utm_summaries';
import { Migration20261122050000_brand_themes_json } from './Migration20261122050000_brand_themes_json';
import { Migration20261122060000_brand_views } from './Migration20261122060000_brand_views';
import { Migration20261122070000_page_group_views } from './Migration20261122070000_page_group_views';
import { Migration20261123000000_page_group_counters } from './Migration20261123000000_page_group_counters';
import { Migration20261123010000_delivery_fillfactor } from './Migration20261123010000_delivery_fillfactor';
import { Migration20261125000000_idempotency_owner } from './Migration20261125000000_idempotency_owner';
import { Migration20261125010000_utm_values_bounded } from './Migration20261125010000_utm_values_bounded';
import { Migration20261125020000_delivery_requeue } from './Migration20261125020000_delivery_requeue';
import { Migration20261125030000_webhook_retention } from './Migration20261125030000_webhook_retention';
import { Migration20261125040000_delivery_log_keys } from './Migration20261125040000_delivery_log_keys';
import { Migration20261125050000_views_from_the_application } from './Migration20261125050000_views_from_the_application';
import { Migration20261125060000_page_versions_and_stats } from './Migration20261125060000_page_versions_and_stats';
import { Migration20261125070000_events_api } from './Migration20261125070000_events_api';
import { Migration20261125080000_webhook_operations } from './Migration20261125080000_webhook_operations';
import { Migration20261125090000_abuse_bounds } from './Migration20261125090000_abuse_bounds';
import { Migration20261125100000_idempotency_held_by_transaction } from './Migration20261125100000_idempotency_held_by_transaction';
import { Migration20261125110000_receivers_set_the_pace } from './Migration20261125110000_receivers_set_the_pace';
import { Migration20261126000000_endpoint_health } from './Migration20261126000000_endpoint_health';
import { Migration20261126010000_event_trace_context } from './Migration20261126010000_event_trace_context';
import { Migration20261128000000_key_cache_holders } from './Migration20261128000000_key_cache_holders';
import { Migration20261128010000_health_notices } from './Migration20261128010000_health_notices';

// An explicit list, not a folder scan: the same migrations run from ts (tests) and dist (start),
// with nothing to discover and nothing silently skipped (a folder scan finds .ts or .js, not both, depending on how the process was started).
export const MIGRATIONS = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261122010000_pages', class: Migration20261122010000_pages },
  { name: 'Migration20261122020000_webhooks', class: Migration20261122020000_webhooks },
  { name: 'Migration20261122030000_idempotency', class: Migration20261122030000_idempotency },
  { name: 'Migration20261122040000_utm_summaries', class: Migration20261122040000_utm_summaries },
  { name: 'Migration20261122050000_brand_themes_json', class: Migration20261122050000_brand_themes_json },
  { name: 'Migration20261122060000_brand_views', class: Migration20261122060000_brand_views },
  { name: 'Migration20261122070000_page_group_views', class: Migration20261122070000_page_group_views },
  { name: 'Migration20261123000000_page_group_counters', class: Migration20261123000000_page_group_counters },
  { name: 'Migration20261123010000_delivery_fillfactor', class: Migration20261123010000_delivery_fillfactor },
  { name: 'Migration20261125000000_idempotency_owner', class: Migration20261125000000_idempotency_owner },
  { name: 'Migration20261125010000_utm_values_bounded', class: Migration20261125010000_utm_values_bounded },
  { name: 'Migration20261125020000_delivery_requeue', class: Migration20261125020000_delivery_requeue },
  { name: 'Migration20261125030000_webhook_retention', class: Migration20261125030000_webhook_retention },
  { name: 'Migration20261125040000_delivery_log_keys', class: Migration20261125040000_delivery_log_keys },
  { name: 'Migration20261125050000_views_from_the_application', class: Migration20261125050000_views_from_the_application },
  { name: 'Migration20261125060000_page_versions_and_stats', class: Migration20261125060000_page_versions_and_stats },
  { name: 'Migration20261125070000_events_api', class: Migration20261125070000_events_api },
  { name: 'Migration20261125080000_webhook_operations', class: Migration20261125080000_webhook_operations },
  { name: 'Migration20261125090000_abuse_bounds', class: Migration20261125090000_abuse_bounds },
  { name: 'Migration20261125100000_idempotency_held_by_transaction', class: Migration20261125100000_idempotency_held_by_transaction },
  { name: 'Migration20261125110000_receivers_set_the_pace', class: Migration20261125110000_receivers_set_the_pace },
  { name: 'Migration20261126000000_endpoint_health', class: Migration20261126000000_endpoint_health },
  { name: 'Migration20261126010000_event_trace_context', class: Migration20261126010000_event_trace_context },
  { name: 'Migration20261128000000_key_cache_holders', class: Migration20261128000000_key_cache_holders },
  { name: 'Migration20261128010000_health_notices', class: Migration20261128010000_health_notices },
];
