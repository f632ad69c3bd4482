// Keyset pagination, newest first (decisions.md, Lists). The HTTP adapter turns `lastId` into an
// opaque cursor and back; the core only knows "items after this id".

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 100;

/** What a list call asks for (named apart from the domain's Page, which it has nothing to do with). */
export interface ListRequest {
  limit: number;
  /** Id of the last item of the previous page; absent for the first page. */
  after?: string;
}

/** One slice of a list, newest first. */
export interface ListSlice<T> {
  items: T[];
  hasMore: boolean;
  /** Id of the last item returned, present when `hasMore`. */
  lastId?: string;
}

/** Cuts a `limit + 1` row fetch into a slice: the extra row only says that more exist. */
export function toSlice<T>(rows: T[], limit: number, idOf: (item: T) => string): ListSlice<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return hasMore ? { items, hasMore, lastId: idOf(items[items.length - 1]) } : { items, hasMore };
}

/** The same slice with each item turned into what the caller answers with (cursor unchanged). */
export function mapSlice<T, U>(page: ListSlice<T>, map: (item: T) => U): ListSlice<U> {
  return { ...page, items: page.items.map(map) };
}
