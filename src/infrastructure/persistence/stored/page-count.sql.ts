/** A page group's count of pages: the sum of its counter rows (Migration...20261123000000). */
export function pagesCountOf(groupIdColumn: string): string {
  return `(SELECT sum(c.pages_count)::int FROM page_group_counters c WHERE c.page_group_id = ${groupIdColumn})`;
}
