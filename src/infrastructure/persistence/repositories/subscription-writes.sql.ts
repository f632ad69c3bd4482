import { outboxInsert } from '../outbox/outbox.writer';

// SQL text, not typed statements (decisions.md 184). ADD_WITHIN_LIMIT inserts only while the
// tenant's count of live subscriptions is under its limit, in one statement: an INSERT … SELECT
// whose values need explicit casts (a parameter in a SELECT list is not typed by the target
// column), which a builder would only wrap in raw fragments. SAVE writes the row and the events
// the subscription recorded in one statement (outboxInsert), and keeps the old secrets that did
// not expire inside the stored JSON list.

/** $1…$13 as SqlWebhookSubscriptionRepository.add gives them; answers the id when it inserted. */
export const ADD_WITHIN_LIMIT = `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, active, signing_secret_encrypted, created_at, updated_at, deleted_at, rate_limit_per_second, delivery_filter, ordering)
         SELECT $1, $2, $3, $4::text[], $5, $6, $7, $8, $9, $11, $12::jsonb, $13
         WHERE (SELECT count(*) FROM webhook_subscriptions WHERE tenant_id = $2 AND deleted_at IS NULL) < $10
         RETURNING id`;

/** Everything about a loaded subscription that can change, and its events ($25), as SqlWebhookSubscriptionRepository.save gives them. */
export const SAVE = `WITH subscription AS (
         UPDATE webhook_subscriptions SET url = $3, events = $4::text[], active = $5, updated_at = $6, deleted_at = $7, rate_limit_per_second = $8, delivery_filter = $9::jsonb, ordering = $26,
           consecutive_failures = $10, last_success_at = $11, last_failure_at = $12, disable_at = $13, disabled_reason = $14, breaker_probe_at = $15, breaker_probes = $16,
           health_failing_sent_at = $17, health_recovery_owed = $18, send_not_before = to_timestamp($19::float8 / 1000), held_release_at = $20, breaker_probe_delivery_id = $21,
           signing_secret_encrypted = coalesce($22, signing_secret_encrypted),
           previous_signing_secrets = coalesce($23::jsonb, (SELECT coalesce(jsonb_agg(old ORDER BY n), '[]'::jsonb)
             FROM jsonb_array_elements(previous_signing_secrets) WITH ORDINALITY AS kept(old, n) WHERE old->>'expiresAt' = ANY($24::text[])))
         WHERE id = $1 AND tenant_id = $2 RETURNING 1)
       ${outboxInsert(25, { after: 'subscription' })}`;
