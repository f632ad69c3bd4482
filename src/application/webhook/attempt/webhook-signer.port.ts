export abstract class WebhookSigner {
  /** The signature and identification headers of one attempt. */
  abstract headers(input: { eventId: string; eventType: string; body: string; signingSecret: string; previousSecrets?: string[]; sentAt: Date }): Record<string, string>;

  /**
   * The headers an attempt sent as the delivery log shows them: every one but the signatures
   * (named in SIGNATURE_HEADERS, never kept), made again from what the log keeps.
   */
  abstract shownHeaders(input: { eventId: string; eventType: string; sentAt: Date }): Record<string, string>;
}

/** The headers that carry signatures: the log names them and shows no value. */
export const SIGNATURE_HEADERS = ['webhook-signature', 'x-webhook-signature-256'] as const;
