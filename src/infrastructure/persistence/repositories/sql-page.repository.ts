import { randomInt } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Page } from '../../../domain/page/page';
import { PageVersion } from '../../../domain/page/page-version';
import { PageRepository } from '../../../domain/page/page-repository.port';
import { PageVersionRepository } from '../../../domain/page/page-version-repository.port';
import { ConcurrentChangeError, NotFoundError } from '../../../domain/shared/domain-error';
import { outboxInsert, outboxParams, recordedEvents, writeAggregates } from '../outbox/outbox.writer';
import { requireTransaction, sqlRows } from '../connection/sql-statement';
import { touched } from '../connection/after-commit';

interface PageRow {
  id: string;
  tenant_id: string;
  page_group_id: string;
  page_template_id: string | null;
  supplementary_context: string | null;
  created_at: Date;
  updated_at: Date;
}

function toPage(row: PageRow): Page {
  return Page.restore({
    id: row.id,
    tenantId: row.tenant_id,
    pageGroupId: row.page_group_id,
    pageTemplateId: row.page_template_id,
    supplementaryContext: row.supplementary_context,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });
}

/** Each group's count of pages is spread over this many rows (Migration...20261123000000). */
export const PAGE_COUNTER_SHARDS = 8;

@Injectable()
export class SqlPageRepository extends PageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Page | null> {
    if (options.forUpdate) requireTransaction(this.em, 'a page read for update');
    const rows = await sqlRows<PageRow>(
      this.em,
      `SELECT id, tenant_id, page_group_id, page_template_id, supplementary_context, created_at, updated_at FROM pages
       WHERE id = $1 AND tenant_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [id, tenantId],
    );
    return rows.length === 0 ? null : touched(toPage(rows[0]));
  }

  async add(page: Page, firstVersion: PageVersion): Promise<void> {
    // One statement: the group's count, the page, its version 1 and their events, atomic without a
    // BEGIN/COMMIT round trip each and without the ORM's change sets. Each insert reads the row
    // the previous one returned, so when the count matches no live group nothing is written.
    // The count's row lock is held for this statement and its commit only; the row is the first
    // of the group's eight, from one picked at random, that no other transaction holds (SKIP
    // LOCKED), so concurrent pages of one group do not wait for each other's disk flush (picked
    // at random alone, creations often did: docs/performance-analysis.md). Only when all eight
    // are held (a delete in progress, or eight creations at once) does it wait for its random
    // one. Still exact: a delete that committed first has set `live` false (trigger of
    // Migration...20261123000000), so the count matches nothing (READ COMMITTED re-reads the row
    // after the wait) and the page is a 404; a delete that comes later waits for this commit.
    const rows = await writeAggregates<{ n: number }>(this.em, [page, firstVersion], CREATE_PAGE, [
      page.pageGroupId, randomInt(PAGE_COUNTER_SHARDS), page.tenantId,
      page.id, page.pageTemplateId, page.supplementaryContext, page.createdAt, page.updatedAt,
      firstVersion.id, firstVersion.number, firstVersion.createdAt,
      ...outboxParams(recordedEvents(page, firstVersion)),
    ]);
    if (rows[0].n === 0) throw new NotFoundError('page group', page.pageGroupId);
  }
}

const CREATE_PAGE = `
  WITH p AS (SELECT $1::text AS page_group_id, $2::int AS shard, $3::text AS tenant_id),
  free AS (
    SELECT c.shard FROM page_group_counters c, p
    WHERE c.page_group_id = p.page_group_id AND c.tenant_id = p.tenant_id AND c.live
    ORDER BY (c.shard + ${PAGE_COUNTER_SHARDS} - p.shard) % ${PAGE_COUNTER_SHARDS}
    LIMIT 1 FOR UPDATE OF c SKIP LOCKED),
  counted AS (
    UPDATE page_group_counters c SET pages_count = c.pages_count + 1
    FROM p
    WHERE c.page_group_id = p.page_group_id AND c.shard = coalesce((SELECT shard FROM free), p.shard) AND c.tenant_id = p.tenant_id AND c.live
    RETURNING c.page_group_id, c.tenant_id),
  page AS (
    INSERT INTO pages (id, tenant_id, page_group_id, page_template_id, supplementary_context, created_at, updated_at)
    SELECT $4::text, tenant_id, page_group_id, $5::text, $6::text, $7::timestamptz, $8::timestamptz FROM counted
    RETURNING id, tenant_id, page_group_id),
  version AS (
    INSERT INTO page_versions (id, tenant_id, page_id, page_group_id, number, page_template_id, supplementary_context, created_at)
    SELECT $9::text, tenant_id, id, page_group_id, $10::int, $5::text, $6::text, $11::timestamptz FROM page
    RETURNING tenant_id),
  event AS (${outboxInsert(12, { after: 'version' })})
  SELECT count(*)::int AS n FROM counted`;

@Injectable()
export class SqlPageVersionRepository extends PageVersionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async latestNumber(tenantId: string, pageId: string): Promise<number> {
    const rows = await sqlRows<{ latest: number | null }>(
      this.em,
      'SELECT max(number) AS latest FROM page_versions WHERE page_id = $1 AND tenant_id = $2',
      [pageId, tenantId],
    );
    return rows[0]?.latest ?? 0;
  }

  /** One statement: the version, the page's new content and their events. */
  async add(page: Page, version: PageVersion): Promise<void> {
    try {
      await writeAggregates(this.em, [page, version], CREATE_VERSION, [
        version.id, version.tenantId, version.pageId, version.pageGroupId, version.number, version.pageTemplateId, version.supplementaryContext, version.createdAt,
        page.updatedAt,
        ...outboxParams(recordedEvents(page, version)),
      ]);
    } catch (error) {
      // Raised by PostgreSQL through the statement helper: another version took the number.
      if ((error as { code?: unknown }).code === '23505') throw new ConcurrentChangeError(`page ${version.pageId}`);
      throw error;
    }
  }
}

const CREATE_VERSION = `
  WITH version AS (
    INSERT INTO page_versions (id, tenant_id, page_id, page_group_id, number, page_template_id, supplementary_context, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    RETURNING page_id, tenant_id, page_template_id, supplementary_context),
  page AS (
    UPDATE pages p SET page_template_id = v.page_template_id, supplementary_context = v.supplementary_context, updated_at = $9
    FROM version v WHERE p.id = v.page_id AND p.tenant_id = v.tenant_id
    RETURNING 1)
  ${outboxInsert(10, { after: 'version' })}`;
