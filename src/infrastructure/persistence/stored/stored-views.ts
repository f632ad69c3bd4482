import { toBrandView } from '../../../domain/brand/brand.view';
import { jsonOf } from '../../../application/shared/json-text';
import { toPageGroupView } from '../../../application/page-group/page-group.view';
import { Brand } from '../../../domain/brand/brand';
import { PageGroup } from '../../../domain/page-group/page-group';

// Hot lists answer stored JSON texts instead of rows to serialise (docs/performance-analysis.md).
// Each text is rendered here, from the view function the API answers with, by every writer of the
// row (repositories and the bulk seeder), in the writer's own statement: the shape is defined once.

/** `brands.view_json`: the Brand (response) as the API answers it. */
export function storedBrandView(brand: Brand): string {
  return jsonOf(toBrandView(brand));
}

const COUNT_KEY = ',"pagesCount":';

/**
 * `page_groups.view_head` and `view_tail`: the list item's JSON in two texts around its count of
 * pages, which lives in counter rows and changes without the group's row (the list puts the
 * current sum between them). The first `,"pagesCount":` is the view's own key: every key before
 * it has a string or null value, in which JSON escapes any `"`.
 */
export function storedPageGroupView(group: PageGroup): { head: string; tail: string } {
  const text = JSON.stringify({ ...toPageGroupView(group), pagesCount: 0 });
  const at = text.indexOf(COUNT_KEY) + COUNT_KEY.length;
  return { head: text.slice(0, at), tail: text.slice(at + 1) };
}
