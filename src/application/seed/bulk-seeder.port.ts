/** Sizes of a benchmark data set (`seed:bulk`). */
export interface BulkSeedSizes {
  tenants: number;
  brands: number;
  pageGroups: number;
  pagesPerGroup: number;
  sessions: number;
  /** Share (0..1) of the sessions that go to the first page group, the "hot" one. */
  hotGroupShare: number;
  /**
   * Sessions, besides those, on the first page of the sample tenant's second page group, each with a `utm_content` of
   * its own: a page whose visitors gave it that many distinct values (0 for none).
   */
  wideUtmSessions: number;
  /** Final webhook deliveries of the sample tenant over the last 24 hours, for the delivery search (0 for none). */
  deliveries: number;
}

export interface BulkSeedResult {
  tenants: number;
  brands: number;
  pageGroups: number;
  pages: number;
  sessions: number;
  utmValues: number;
  deliveries: number;
  seconds: number;
  /** A tenant of the seed with a working key, its hot group and a brand, for benchmarks. */
  sample: {
    tenantId: string; apiKey: string; pageGroupId: string; brandId: string; templateId: string; pageId: string; widePageGroupId: string; widePageId: string;
    /** One of the seeded deliveries' subscriptions; empty with no deliveries. */
    deliverySubscriptionId: string;
  };
}

export type ProgressListener = (stage: string, done: number, total: number) => void;

/** Writes a large synthetic data set quickly (set-based inserts), reporting progress as it goes. */
export abstract class BulkSeeder {
  abstract seed(sizes: BulkSeedSizes, onProgress: ProgressListener): Promise<BulkSeedResult>;
}
