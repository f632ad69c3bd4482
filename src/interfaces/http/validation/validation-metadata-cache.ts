import { getMetadataStorage } from 'class-validator';

/**
 * class-validator looks up a class's rules on every validation, for every nested object: it
 * filters that class's rules and walks every other class with rules to find inherited ones. Our
 * DTOs' rules are fixed once their classes are defined, so the answer is kept per class and
 * options, and forgotten whenever a rule is added (a class defined later). It was a fifth of the
 * validation's cost of a brand's body in the API's profile (docs/performance-analysis.md).
 * Installed once per process; the storage is class-validator's global one.
 */
export function cacheValidationMetadataLookups(): void {
  const storage = getMetadataStorage() as unknown as MetadataStorageInternals;
  if (storage[INSTALLED]) return;
  storage[INSTALLED] = true;
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let kept = new Map<unknown, Map<string, unknown[]>>();
  const grouped = new WeakMap<unknown[], Record<string, unknown[]>>();
  storage.addValidationMetadata = (metadata: unknown) => {
    kept = new Map();
    add(metadata);
  };
  // The executor groups the list it got by property on every call; the list is kept, so its grouping is too.
  storage.groupByPropertyName = (list) => {
    let byProperty = grouped.get(list);
    if (!byProperty) grouped.set(list, (byProperty = group(list)));
    return byProperty;
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let ofTarget = kept.get(target);
    if (!ofTarget) kept.set(target, (ofTarget = new Map()));
    let found = ofTarget.get(key);
    if (!found) ofTarget.set(key, (found = lookUp(target, schema, always, strictGroups, groups)));
    // The same list each time: class-validator's executor only reads it and its grouping.
    return found;
  };
}

const INSTALLED = Symbol.for('landing-api.validation-metadata-cache');

interface MetadataStorageInternals {
  [INSTALLED]?: boolean;
  getTargetValidationMetadatas(target: unknown, schema: string, always: boolean, strictGroups: boolean, groups?: string[]): unknown[];
  groupByPropertyName(list: unknown[]): Record<string, unknown[]>;
  addValidationMetadata(metadata: unknown): void;
}
