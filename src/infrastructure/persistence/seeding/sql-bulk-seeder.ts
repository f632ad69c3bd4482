import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { BulkSeeder, BulkSeedResult, BulkSeedSizes, ProgressListener } from '../../../application/seed/bulk-seeder.port';
import { UnitOfWork } from '../../../application/shared/unit-of-work.port';
import { ApiKeySecrets } from '../../../domain/api-key/api-key-secrets.port';
import { newTypeId } from '../../../domain/shared/type-id';
import { sqlQuery } from '../connection/sql-statement';
import { SecretCipher } from '../../crypto/secret-cipher';
import { SeedBatches, seedBatches } from './seed-batches';
import { seedBrands, seedPageGroups, seedPages, seedTemplate } from './seed-catalogue';
import { seedDeliveries } from './seed-deliveries';
import { countSeededSessions } from './seed-session-counters';
import { seedSessions } from './seed-sessions';

/**
 * Benchmark data through `unnest` of parameter arrays, a batch per statement: a million sessions
 * in minutes rather than hours through the use cases, and still only valid rows (real TypeIDs;
 * brands and page groups made as aggregates, so that their stored views are the API's). The
 * steps, in order: tenants and the sample's key, brands, the template, page groups, pages,
 * sessions, their counters, webhook deliveries.
 */
@Injectable()
export class SqlBulkSeeder extends BulkSeeder {
  constructor(
    private readonly em: EntityManager,
    private readonly secrets: ApiKeySecrets,
    private readonly unitOfWork: UnitOfWork,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async seed(sizes: BulkSeedSizes, onProgress: ProgressListener): Promise<BulkSeedResult> {
    const started = Date.now();
    const now = new Date();
    const batches = seedBatches(onProgress);
    const em = this.em;

    const { tenants, plainKey } = await this.seedTenants(sizes.tenants, now, batches);
    const brandIds = await seedBrands(em, tenants, sizes.brands, now, batches);
    const templateId = await seedTemplate(em, now);
    const groups = await seedPageGroups(em, tenants, sizes.pageGroups, templateId, now, batches);
    const pages = await seedPages(em, groups, sizes.pagesPerGroup, templateId, now, batches);

    const hot = groups[0];
    const hotPages = pages.filter((p) => p.groupId === hot.id);
    // The wide page: the first of the sample tenant's second group.
    const wideGroup = groups.filter((g) => g.tenantId === hot.tenantId)[1];
    const widePage = wideGroup && sizes.wideUtmSessions > 0 ? pages.find((p) => p.groupId === wideGroup.id) : undefined;
    const { utmValues } = await seedSessions(em, {
      pages, hotPage: hotPages[0], hotSessions: Math.round(sizes.sessions * sizes.hotGroupShare), sessions: sizes.sessions,
      widePage, wideSessions: sizes.wideUtmSessions, now,
    }, batches);
    await this.unitOfWork.run(() => countSeededSessions(em, pages.map((p) => p.id), onProgress));

    const { subscriptionIds } = await seedDeliveries(
      em,
      this.cipher,
      { tenantId: hot.tenantId, pageIds: hotPages.map((p) => p.id), brandIds: brandIds.filter((_, i) => i % tenants.length === 0), count: sizes.deliveries, now },
      batches,
    );
    await sqlQuery(em, 'ANALYZE');

    return {
      tenants: tenants.length,
      brands: sizes.brands,
      pageGroups: groups.length,
      pages: pages.length,
      sessions: sizes.sessions + (widePage ? sizes.wideUtmSessions : 0),
      utmValues,
      deliveries: sizes.deliveries,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      sample: { tenantId: tenants[0], apiKey: plainKey, pageGroupId: hot.id, brandId: brandIds[0] ?? '', templateId, pageId: hotPages[0]?.id ?? '',
        widePageGroupId: widePage?.groupId ?? '', widePageId: widePage?.id ?? '',
        deliverySubscriptionId: sizes.deliveries > 0 ? subscriptionIds[0] : '' },
    };
  }

  /** The tenants, and one API key of the first (the sample's). */
  private async seedTenants(count: number, now: Date, batches: SeedBatches): Promise<{ tenants: string[]; plainKey: string }> {
    const tenants = Array.from({ length: count }, () => newTypeId('tenant'));
    await batches('tenants', tenants.length, async (from, to) => {
      await sqlQuery(this.em, 'INSERT INTO tenants (id, name, created_at) SELECT id, $2, $3 FROM unnest($1::text[]) id', [tenants.slice(from, to), 'Bench tenant', now]);
    });
    const key = this.secrets.generate();
    await sqlQuery(this.em, 'INSERT INTO api_keys (id, tenant_id, key_hash, display_prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [
      newTypeId('apikey'), tenants[0], key.keyHash, key.displayPrefix, now,
    ]);
    return { tenants, plainKey: key.plainKey };
  }
}
