import { newTypeId } from '../../domain/shared/type-id';

// The write of POST /v0/brands in raw SQL: baseline (b-w) of `npm run bench`. A write commits and
// flushes WAL, which no read does, so a write is compared with this rather than with (b) alone:
// the brand's row and its event's outbox row, written by one statement (one transaction, one round
// trip, as the repository's own write is), with the response JSON given as the stored view.
export const RAW_BRAND_WRITE_SQL = `WITH brand AS (
    INSERT INTO brands (id, tenant_id, name, preferred_appearance, theme_light, theme_dark, company_home_page, created_at, updated_at, view_json)
    VALUES ($1, $2, 'Bench brand', 'dark', '{}', '{}', NULL, $3, $3, $4) RETURNING id)
  INSERT INTO outbox_events (id, tenant_id, type, body, created_at) SELECT $5, $2, 'brand.created', $6, $3 FROM brand`;

/** The statement's values for a tenant, and the answer to send: the brand's JSON as the API's would be. */
export function rawBrandWrite(tenantId: string, now: Date): { values: unknown[]; answer: string } {
  const id = newTypeId('brand', now.getTime());
  const answer = JSON.stringify({ brandId: id, name: 'Bench brand', preferredAppearance: 'dark', themeLight: {}, themeDark: {}, companyHomePage: null, createdAt: now, updatedAt: now });
  const eventId = newTypeId('evt', now.getTime());
  const body = JSON.stringify({ id: eventId, type: 'brand.created', createdAt: now, tenantId, data: JSON.parse(answer) });
  return { values: [id, tenantId, now, answer, eventId, body], answer };
}
