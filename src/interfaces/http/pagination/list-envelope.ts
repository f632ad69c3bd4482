import { Page } from '../../../application/shared/pagination';
import { encodeCursor } from './cursor';

/** The pagination envelope: `nextCursor` exactly when `hasMore` (decisions.md, Lists). */
export interface ListEnvelope<T> {
  items: T[];
  hasMore: boolean;
  nextCursor?: string;
}

export function toEnvelope<T>(list: string, page: Page<T>): ListEnvelope<T> {
  const envelope: ListEnvelope<T> = { items: page.items, hasMore: page.hasMore };
  if (page.hasMore && page.lastId) envelope.nextCursor = encodeCursor(list, page.lastId);
  return envelope;
}
