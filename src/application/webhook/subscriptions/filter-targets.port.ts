/** What a subscription's filter may name: the tenant's own page groups and brands. */
export abstract class FilterTargets {
  /** Of `ids`, those that are the tenant's page groups (not deleted). */
  abstract pageGroupsOf(tenantId: string, ids: readonly string[]): Promise<Set<string>>;
  /** Of `ids`, those that are the tenant's brands. */
  abstract brandsOf(tenantId: string, ids: readonly string[]): Promise<Set<string>>;
}
