// Small SQL helpers for the read side, which answers in the response shape without hydrating
// entities: hydration costs several times what the rows do (docs/performance-analysis.md).

/** A page group's count of pages: the sum of its counter rows (Migration...20261123000000). */
export function pagesCountOf(groupIdColumn: string): string {
  return `(SELECT sum(c.pages_count)::int FROM page_group_counters c WHERE c.page_group_id = ${groupIdColumn})`;
}
