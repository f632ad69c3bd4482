import { ListSlice } from '../../../application/shared/pagination';
import { JsonText } from '../../../application/shared/json-text';
import { encodeCursor } from './cursor';

/** The pagination envelope: `nextCursor` exactly when `hasMore` (decisions.md, Lists). */
export interface ListEnvelope<T> {
  items: T[];
  hasMore: boolean;
  nextCursor?: string;
}

export function toEnvelope<T>(list: string, page: ListSlice<T>): ListEnvelope<T> {
  const envelope: ListEnvelope<T> = { items: page.items, hasMore: page.hasMore };
  if (page.hasMore && page.lastId) envelope.nextCursor = encodeCursor(list, page.lastId);
  return envelope;
}

/**
 * The same envelope as JSON text, around items that are already JSON (kept by the store), then
 * `trailing` fields such as an echoed `limit`: the items' text goes into the answer as it is,
 * with nothing parsed or serialised again per request.
 */
export function toEnvelopeJson<T>(list: string, page: ListSlice<JsonText<T>>, trailing: Record<string, number> = {}): string {
  const items = page.items.map((item) => item.text).join(',');
  const cursor = page.hasMore && page.lastId ? `,"nextCursor":${JSON.stringify(encodeCursor(list, page.lastId))}` : '';
  const more = Object.entries(trailing).map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`).join('');
  return `{"items":[${items}],"hasMore":${page.hasMore}${cursor}${more}}`;
}
