export abstract class WebhookSigner {
  /** The signature and identification headers of one attempt. */
  abstract headers(input: { eventId: string; eventType: string; body: string; signingSecret: string; previousSecrets?: string[]; sentAt: Date }): Record<string, string>;
}
