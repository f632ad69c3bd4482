/**
 * What a delivery is about, for the delivery search (GET /v0/webhook_deliveries?page_id=…, brand_id=…):
 * the page of a page's event, the brand of a brand's event, the subscription of a subscription's
 * health event; null for a kind about nothing (the test event) or a body that does not name it.
 * Ids of different kinds have different prefixes, so one column holds them all.
 */
const SUBJECT_FIELD: Readonly<Record<string, string>> = {
  'page.version.created': 'pageId',
  'brand.created': 'id',
  'brand.updated': 'id',
  'webhook_subscription.failing': 'id',
  'webhook_subscription.recovered': 'id',
  'webhook_subscription.disabled': 'id',
};

/** The subject's id read from the event's JSON body (the delivery envelope's `data`). */
export function deliverySubjectOf(type: string, body: string): string | null {
  const field = SUBJECT_FIELD[type];
  if (field === undefined) return null;
  try {
    const value = ((JSON.parse(body) as { data?: Record<string, unknown> }).data ?? {})[field];
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
