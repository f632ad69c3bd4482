import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { BulkSeeder, BulkSeedResult, BulkSeedSizes, ProgressListener } from '../../../application/seed/bulk-seeder.port';
import { UnitOfWork } from '../../../application/shared/unit-of-work.port';
import { ApiKeySecrets } from '../../../domain/api-key/api-key-secrets.port';
import { Brand } from '../../../domain/brand/brand';
import { EMPTY_THEME } from '../../../domain/brand/theme';
import { PAGE_GROUP_STATUSES, PageGroup } from '../../../domain/page-group/page-group';
import { UTM_KINDS } from '../../../domain/page/page-session';
import { newTypeId } from '../../../domain/shared/type-id';
import { sqlQuery } from '../connection/sql-statement';
import { storedBrandView, storedPageGroupView } from '../stored/stored-views';
import { SecretCipher } from '../../crypto/secret-cipher';
import { seedDeliveries } from './seed-deliveries';

const BATCH = 5000;
const VOCABULARY: Record<(typeof UTM_KINDS)[number], string[]> = {
  campaign: Array.from({ length: 200 }, (_, i) => `campaign-${i}`),
  content: Array.from({ length: 100 }, (_, i) => `content-${i}`),
  medium: ['cpc', 'email', 'social', 'organic', 'display', 'affiliate', 'referral', 'video'],
  source: Array.from({ length: 50 }, (_, i) => `source-${i}`),
  term: Array.from({ length: 500 }, (_, i) => `term ${i}`),
};

/**
 * Benchmark data through `unnest` of parameter arrays, a batch per statement: a million sessions
 * in minutes rather than hours through the use cases, and still only valid rows (real TypeIDs;
 * brands and page groups made as aggregates, so that their stored views are the API's).
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
    const pick = <T>(items: T[], i: number) => items[i % items.length];

    const tenants = Array.from({ length: sizes.tenants }, () => newTypeId('tenant'));
    await this.batches('tenants', tenants.length, onProgress, async (from, to) => {
      const ids = tenants.slice(from, to);
      await sqlQuery(this.em, 'INSERT INTO tenants (id, name, created_at) SELECT id, $2, $3 FROM unnest($1::text[]) id', [ids, 'Bench tenant', now]);
    });

    const key = this.secrets.generate();
    await sqlQuery(this.em, 'INSERT INTO api_keys (id, tenant_id, key_hash, display_prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [
      newTypeId('apikey'), tenants[0], key.keyHash, key.displayPrefix, now,
    ]);

    const theme = { ...EMPTY_THEME, pageBackgroundColor: '#ffffff', pageForegroundColor: '#111827', buttonBackgroundColor: '#4f46e5' };
    const brandIds: string[] = [];
    await this.batches('brands', sizes.brands, onProgress, async (from, to) => {
      // Made as aggregates so that each row's stored view is the one the API's writers store.
      const brands = Array.from({ length: to - from }, (_, i) =>
        Brand.restore({
          id: newTypeId('brand'), tenantId: pick(tenants, from + i), name: `Brand ${from + i + 1}`, preferredAppearance: 'system',
          themeLight: theme, themeDark: theme, companyHomePage: `https://brand.example/${from + i + 1}`, createdAt: now, updatedAt: now,
        }),
      );
      brandIds.push(...brands.slice(0, Math.max(0, 1000 - brandIds.length)).map((b) => b.id));
      await sqlQuery(this.em,
        `INSERT INTO brands (id, tenant_id, name, preferred_appearance, theme_light, theme_dark, company_home_page, created_at, updated_at, view_json)
         SELECT id, tenant_id, name, 'system', $5::json, $5::json, home, $6, $6, view_json
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $7::text[]) AS b(id, tenant_id, name, home, view_json)`,
        [brands.map((b) => b.id), brands.map((b) => b.tenantId), brands.map((b) => b.name), brands.map((b) => b.companyHomePage), JSON.stringify(theme), now, brands.map(storedBrandView)],
      );
    });

    const templateId = newTypeId('pagetemplate');
    await sqlQuery(this.em, 
      `INSERT INTO templates (id, name, description, template_content, is_editable, is_system, version, created_at)
       VALUES ($1, 'Bench template', 'For benchmarks', '<main>{{hero}}</main>', false, true, 1, $2)`,
      [templateId, now],
    );

    const actions = [{ type: 'link', label: 'Go' }];
    const groups = Array.from({ length: sizes.pageGroups }, (_, i) =>
      PageGroup.restore({
        id: newTypeId('page'), tenantId: pick(tenants, i), brandId: null, name: `Group ${i + 1}`, title: null, pageContext: null,
        pageTemplateId: templateId, headerActionId: null, status: PAGE_GROUP_STATUSES[(i + 1) % 3], pagesCount: 0,
        actions, footerLinks: [], scripts: [], createdAt: now, updatedAt: now, deletedAt: null,
      }),
    );
    await this.batches('page groups', groups.length, onProgress, async (from, to) => {
      const slice = groups.slice(from, to);
      const views = slice.map(storedPageGroupView);
      await sqlQuery(this.em,
        `INSERT INTO page_groups (id, tenant_id, name, status, page_template_id, actions, created_at, updated_at, view_head, view_tail)
         SELECT id, tenant_id, name, status, $5, $6::json, $7, $7, view_head, view_tail
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $8::text[], $9::text[]) AS g(id, tenant_id, name, status, view_head, view_tail)`,
        [slice.map((g) => g.id), slice.map((g) => g.tenantId), slice.map((g) => g.name), slice.map((g) => g.status), templateId,
          JSON.stringify(actions), now, views.map((v) => v.head), views.map((v) => v.tail)],
      );
    });

    const pages = groups.flatMap((group) =>
      Array.from({ length: sizes.pagesPerGroup }, () => ({ id: newTypeId('pagevar'), tenantId: group.tenantId, groupId: group.id })),
    );
    await this.batches('pages', pages.length, onProgress, async (from, to) => {
      const slice = pages.slice(from, to);
      const [ids, owners, groupIds] = [slice.map((p) => p.id), slice.map((p) => p.tenantId), slice.map((p) => p.groupId)];
      await sqlQuery(this.em, 
        `INSERT INTO pages (id, tenant_id, page_group_id, page_template_id, created_at, updated_at)
         SELECT id, tenant_id, group_id, $4, $5, $5 FROM unnest($1::text[], $2::text[], $3::text[]) AS p(id, tenant_id, group_id)`,
        [ids, owners, groupIds, templateId, now],
      );
      await sqlQuery(this.em, 
        `INSERT INTO page_versions (id, tenant_id, page_id, page_group_id, number, created_at)
         SELECT id, tenant_id, page_id, group_id, 1, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS v(id, tenant_id, page_id, group_id)`,
        [slice.map(() => newTypeId('pagever')), owners, ids, groupIds, now],
      );
    });
    await sqlQuery(this.em, 'UPDATE page_group_counters SET pages_count = $2 WHERE page_group_id = ANY($1::text[]) AND shard = 0', [groups.map((g) => g.id), sizes.pagesPerGroup]);

    const hot = groups[0];
    const hotPages = pages.filter((p) => p.groupId === hot.id);
    const hotSessions = Math.round(sizes.sessions * sizes.hotGroupShare);
    const seen = new Set<string>();
    let utmValues = 0;
    const insertSessions = async (chosen: typeof pages, utm: (string | null)[][], times: Date[]) => {
      await sqlQuery(this.em,
        `INSERT INTO page_sessions (id, tenant_id, page_id, page_group_id, utm_campaign, utm_content, utm_medium, utm_source, utm_term, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[])`,
        [chosen.map(() => newTypeId('pagesession')), chosen.map((p) => p.tenantId), chosen.map((p) => p.id), chosen.map((p) => p.groupId), ...utm, times],
      );
      const fresh: [string, string, string][] = [];
      chosen.forEach((page, i) =>
        UTM_KINDS.forEach((kind, k) => {
          const value = utm[k][i];
          const entry = `${page.groupId}|${kind}|${value}`;
          if (value !== null && !seen.has(entry)) {
            seen.add(entry);
            fresh.push([page.groupId, kind, value]);
          }
        }),
      );
      if (fresh.length > 0) {
        await sqlQuery(this.em, 
          `WITH added AS (
             INSERT INTO page_group_utm_values (page_group_id, kind, value, last_seen_at)
             SELECT *, $4::timestamptz FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING
             RETURNING page_group_id)
           INSERT INTO page_group_utm_summaries (page_group_id, generation) SELECT DISTINCT page_group_id, 1 FROM added
           ON CONFLICT (page_group_id) DO UPDATE SET generation = page_group_utm_summaries.generation + 1`,
          [fresh.map((f) => f[0]), fresh.map((f) => f[1]), fresh.map((f) => f[2]), now],
        );
        utmValues += fresh.length;
      }
    };
    // The hot sessions all visit the hot group's first page (a page with a million sessions for the
    // statistics scenario); every session's time is spread evenly over the last 90 days.
    const spreadMs = 90 * 24 * 3_600_000;
    await this.batches('sessions', sizes.sessions, onProgress, async (from, to) => {
      const n = to - from;
      const chosen = Array.from({ length: n }, (_, i) => (from + i < hotSessions ? hotPages[0] : pick(pages, (from + i) * 7919)));
      const utm = UTM_KINDS.map((kind) => chosen.map((_, i) => pick(VOCABULARY[kind], (from + i) * (kind.length + 3))));
      const times = chosen.map((_, i) => new Date(now.getTime() - Math.floor(((from + i) * spreadMs) / sizes.sessions)));
      await insertSessions(chosen, utm, times);
    });
    // The wide page, the first of the sample tenant's second group: every session with a
    // utm_content of its own, over the same 90 days.
    const wideGroup = groups.filter((g) => g.tenantId === hot.tenantId)[1];
    const wide = wideGroup ? pages.find((p) => p.groupId === wideGroup.id) : undefined;
    if (wide && sizes.wideUtmSessions > 0) {
      await this.batches('sessions with distinct UTM values', sizes.wideUtmSessions, onProgress, async (from, to) => {
        const chosen = Array.from({ length: to - from }, () => wide);
        const utm = UTM_KINDS.map((kind) => chosen.map((_, i) => (kind === 'content' ? `wide-${from + i}` : null)));
        const times = chosen.map((_, i) => new Date(now.getTime() - Math.floor(((from + i) * spreadMs) / sizes.wideUtmSessions)));
        await insertSessions(chosen, utm, times);
      });
    }
    await this.unitOfWork.run(() => this.countSessions(this.em, pages.map((p) => p.id), onProgress));
    const { subscriptionIds } = await seedDeliveries(
      this.em,
      this.cipher,
      { tenantId: hot.tenantId, pageIds: hotPages.map((p) => p.id), brandIds: brandIds.filter((_, i) => i % tenants.length === 0), count: sizes.deliveries, now },
      (stage, total, insert) => this.batches(stage, total, onProgress, insert),
    );
    await sqlQuery(this.em, 'ANALYZE');

    return {
      tenants: tenants.length,
      brands: sizes.brands,
      pageGroups: groups.length,
      pages: pages.length,
      sessions: sizes.sessions + (wide ? sizes.wideUtmSessions : 0),
      utmValues,
      deliveries: sizes.deliveries,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      sample: { tenantId: tenants[0], apiKey: key.plainKey, pageGroupId: hot.id, brandId: brandIds[0] ?? '', templateId, pageId: hotPages[0]?.id ?? '',
        widePageGroupId: wide && sizes.wideUtmSessions > 0 ? wide.groupId : '', widePageId: wide && sizes.wideUtmSessions > 0 ? wide.id : '',
        deliverySubscriptionId: sizes.deliveries > 0 ? subscriptionIds[0] : '' },
    };
  }

  /**
   * The statistics' counters of the seeded pages, as recording each session would have left
   * them, from their sessions in one pass (running totals by a window over each value's hours);
   * in one transaction, for the table of hourly counts it drops at its commit.
   */
  private async countSessions(em: EntityManager, pageIds: string[], onProgress: ProgressListener): Promise<void> {
    onProgress('session counters', 0, 3);
    await sqlQuery(em,
      `INSERT INTO page_session_hours (page_id, hour, sessions)
       SELECT page_id, date_trunc('hour', created_at, 'UTC'), count(*) FROM page_sessions WHERE page_id = ANY($1::text[]) GROUP BY 1, 2`,
      [pageIds],
    );
    onProgress('session counters', 1, 3);
    await sqlQuery(em,
      `CREATE TEMPORARY TABLE seeded_utm_hours ON COMMIT DROP AS
       SELECT s.page_id, u.kind, u.value, date_trunc('hour', s.created_at, 'UTC') AS hour, count(*) AS sessions
       FROM page_sessions s
       CROSS JOIN LATERAL (VALUES ('campaign', s.utm_campaign), ('content', s.utm_content), ('medium', s.utm_medium), ('source', s.utm_source), ('term', s.utm_term)) AS u(kind, value)
       WHERE s.page_id = ANY($1::text[]) AND u.value IS NOT NULL GROUP BY 1, 2, 3, 4`,
      [pageIds],
    );
    onProgress('session counters', 2, 3);
    await sqlQuery(em,
      `INSERT INTO page_utm_values (page_id, kind, value, first_hour, last_hour, total)
       SELECT page_id, kind, value, min(hour), max(hour), sum(sessions) FROM seeded_utm_hours GROUP BY 1, 2, 3`,
    );
    await sqlQuery(em,
      `INSERT INTO page_utm_running (page_id, kind, value, hour, total)
       SELECT page_id, kind, value, hour, sum(sessions) OVER (PARTITION BY page_id, kind, value ORDER BY hour) FROM seeded_utm_hours`,
    );
    onProgress('session counters', 3, 3);
  }

  private async batches(stage: string, total: number, onProgress: ProgressListener, insert: (from: number, to: number) => Promise<void>) {
    onProgress(stage, 0, total);
    for (let from = 0; from < total; from += BATCH) {
      const to = Math.min(total, from + BATCH);
      await insert(from, to);
      onProgress(stage, to, total);
    }
  }
}
