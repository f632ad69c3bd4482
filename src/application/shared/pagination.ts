// Keyset pagination, newest first (decisions.md, Lists). The HTTP adapter turns `lastId` into an
// opaque cursor and back; the core only knows "items after this id".

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 100;

export interface PageRequest {
  limit: number;
  /** Id of the last item of the previous page; absent for the first page. */
  after?: string;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Id of the last item returned, present when `hasMore`. */
  lastId?: string;
}

/** Cuts a `limit + 1` row fetch into a page: the extra row only says that more exist. */
export function toPage<T>(rows: T[], limit: number, idOf: (item: T) => string): Page<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return hasMore ? { items, hasMore, lastId: idOf(items[items.length - 1]) } : { items, hasMore };
}

/** The same page with each item turned into what the caller answers with (cursor unchanged). */
export function mapPage<T, U>(page: Page<T>, map: (item: T) => U): Page<U> {
  return { ...page, items: page.items.map(map) };
}
