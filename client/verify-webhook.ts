// Verifies a webhook delivery in a receiver and returns its event, typed by its `type`.
// Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature` with one `v1,<base64>`
// per valid signing secret while a secret is being rotated) is required: it binds the id and the
// timestamp, and a timestamp more than 5 minutes from now is refused, so a captured delivery
// cannot be replayed later. `X-Webhook-Signature-256: sha256=<hex>` (HMAC-SHA256 of the raw body
// only) signs no time: a delivery stripped of its `webhook-*` headers would verify for ever on it.
// It is accepted alone only with `allowReplayableLegacySignature`, for receivers that cannot read
// the other headers and accept that risk. Comparisons are timing-safe.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './schema.js';

type Schemas = components['schemas'];

// The events as the OpenAPI document's `webhooks` section describes them (generated, never restated).
export type PageVersionCreatedData = Schemas['PageVersionCreatedEvent']['data'];
/** `webhook.test`: sent on request (POST …/test) to one subscription, to try its receiver. */
export type WebhookTestData = Schemas['WebhookTestEvent']['data'];

/**
 * Every event a receiver can be sent, told apart by `type`: each `…Event` envelope of the
 * document, so a kind added to the catalogue is here without a change to this file.
 */
export type WebhookEvent = Schemas[Extract<keyof Schemas, `${string}Event`>];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name] ?? (headers as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function sameBytes(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface VerifyWebhookOptions {
  /**
   * Accept a delivery that carries only `X-Webhook-Signature-256` (no `webhook-*` headers). That
   * signature covers the body and no time, so anyone who captured one delivery (receivers may be
   * plain http) can send it again at any later time and it verifies: deduplicate by the event's
   * `id` if you turn this on. Off by default.
   */
  allowReplayableLegacySignature?: boolean;
  /** The time the timestamp is checked against (tests). */
  now?: Date;
}

/**
 * The event of a delivery whose signatures check out with one of `secrets` (the current signing
 * secret, and the previous one during a rotation); throws WebhookVerificationError otherwise.
 * `rawBody` must be the bytes as received, before any JSON parsing.
 */
export function verifyWebhook(rawBody: Buffer | string, headers: Headers, secrets: string | string[], options: VerifyWebhookOptions = {}): WebhookEvent {
  const now = options.now ?? new Date();
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const keys = (Array.isArray(secrets) ? secrets : [secrets]).filter((s) => s.length > 0);
  if (keys.length === 0) throw new WebhookVerificationError('no signing secret given');
  const spec = header(headers, 'x-webhook-signature-256');
  const standard = header(headers, 'webhook-signature');
  if (spec === undefined && standard === undefined) throw new WebhookVerificationError('the delivery carries no signature');

  if (standard === undefined && spec !== undefined) {
    if (!options.allowReplayableLegacySignature) {
      throw new WebhookVerificationError('webhook-signature is missing (X-Webhook-Signature-256 alone signs no time: see allowReplayableLegacySignature)');
    }
    const valid = keys.some((key) => sameBytes(spec, `sha256=${createHmac('sha256', key).update(body).digest('hex')}`));
    if (!valid) throw new WebhookVerificationError('X-Webhook-Signature-256 does not match');
  }
  if (standard !== undefined) {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    if (!id || !timestamp || !/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-id or webhook-timestamp is missing');
    if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) throw new WebhookVerificationError('webhook-timestamp is too far from now');
    const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
    const given = standard.split(' ').filter((part) => part.startsWith('v1,')).map((part) => part.slice(3));
    const valid = keys.some((key) => {
      const expected = createHmac('sha256', Buffer.from(key.replace(/^whsec_/, ''), 'base64')).update(signed).digest('base64');
      return given.some((signature) => sameBytes(signature, expected));
    });
    if (!valid) throw new WebhookVerificationError('webhook-signature does not match');
  }

  let event: WebhookEvent;
  try {
    event = JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  if (standard !== undefined && header(headers, 'webhook-id') !== event.id) throw new WebhookVerificationError('webhook-id is not the event’s id');
  return event;
}
