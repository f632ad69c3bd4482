// The typed client of the Customer API, generated from the service's own OpenAPI document
// (`npm run openapi:generate` rewrites schema.d.ts; a test fails when it drifts).
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export { verifyWebhook, WebhookVerificationError, WEBHOOK_TOLERANCE_SECONDS } from './verify-webhook.ts';
export { followEvents, FeedReadError } from './follow-events.ts';
export type { FeedEvent, FollowEventsOptions } from './follow-events.ts';
export type { PageVersionCreatedData, VerifyWebhookOptions, WebhookEvent, WebhookTestData } from './verify-webhook.ts';

export function createApiClient(options: { baseUrl: string; apiKey: string; fetch?: typeof fetch }) {
  return createClient<paths>({ baseUrl: options.baseUrl, headers: { 'x-api-key': options.apiKey }, fetch: options.fetch });
}

export type ApiClient = ReturnType<typeof createApiClient>;
