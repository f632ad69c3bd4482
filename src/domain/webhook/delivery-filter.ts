import { InvalidValueError } from '../shared/domain-error';
import { ID_PREFIXES, isTypeId } from '../shared/type-id';

/**
 * Which events of its kinds a subscription gets, by what they are about (decisions.md 141). Each
 * list narrows the events that are about a thing of its kind: `pageGroupIds` the events of a page
 * group's pages, `brandIds` the events of a brand. An event about no such thing (a brand event for
 * `pageGroupIds`, a health event for either) is not narrowed by that list.
 */
export interface DeliveryFilter {
  pageGroupIds?: readonly string[];
  brandIds?: readonly string[];
}

/** What an event is about, as far as filters go (read from its payload's `data`). */
export interface EventSubjects {
  pageGroupId?: string;
  brandId?: string;
}

export const MAX_FILTER_IDS = 100;

const LISTS = [
  { key: 'pageGroupIds', prefix: ID_PREFIXES.pageGroup, subject: 'pageGroupId' },
  { key: 'brandIds', prefix: ID_PREFIXES.brand, subject: 'brandId' },
] as const;

/** The filter as given, checked: an object with known lists of 1 to 100 distinct ids of the right kind. Null: none. */
export function checkFilter(filter: unknown): DeliveryFilter | null {
  if (filter === null || filter === undefined) return null;
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new InvalidValueError('filter', 'must be an object with pageGroupIds and/or brandIds, or null');
  const given = filter as Record<string, unknown>;
  const unknown = Object.keys(given).find((key) => !LISTS.some((list) => list.key === key));
  if (unknown !== undefined) throw new InvalidValueError(`filter.${unknown}`, 'is not a filter; known: pageGroupIds, brandIds');
  const checked: { pageGroupIds?: string[]; brandIds?: string[] } = {};
  for (const { key, prefix } of LISTS) {
    const ids = given[key];
    if (ids === undefined) continue;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_FILTER_IDS) {
      throw new InvalidValueError(`filter.${key}`, `must be an array of 1 to ${MAX_FILTER_IDS} ids; leave it out to filter nothing`);
    }
    ids.forEach((id, i) => {
      if (!isTypeId(id, prefix)) throw new InvalidValueError(`filter.${key}[${i}]`, `must be an id of the form ${prefix}_…`);
      if (ids.indexOf(id) !== i) throw new InvalidValueError(`filter.${key}[${i}]`, 'is a duplicate');
    });
    checked[key] = [...(ids as string[])];
  }
  return Object.keys(checked).length === 0 ? null : checked;
}

/** Whether an event about `subjects` passes the filter (see DeliveryFilter). */
export function passesFilter(filter: DeliveryFilter | null, subjects: EventSubjects): boolean {
  if (filter === null) return true;
  return LISTS.every(({ key, subject }) => {
    const ids = filter[key];
    const about = subjects[subject];
    return ids === undefined || about === undefined || ids.includes(about);
  });
}

/** What an event's JSON body (the delivery envelope) is about; nothing for a body that names nothing. */
export function subjectsOf(body: string): EventSubjects {
  try {
    const data = (JSON.parse(body) as { data?: Record<string, unknown> }).data ?? {};
    const subjects: EventSubjects = {};
    if (typeof data.pageGroupId === 'string') subjects.pageGroupId = data.pageGroupId;
    if (typeof data.brandId === 'string') subjects.brandId = data.brandId;
    return subjects;
  } catch {
    return {};
  }
}

/** The ids a filter names, by kind: the application checks that each is the tenant's. */
export function filterIds(filter: DeliveryFilter | null): { pageGroupIds: readonly string[]; brandIds: readonly string[] } {
  return { pageGroupIds: filter?.pageGroupIds ?? [], brandIds: filter?.brandIds ?? [] };
}
