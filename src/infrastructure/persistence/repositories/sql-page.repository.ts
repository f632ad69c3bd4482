import { randomInt } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Page } from '../../../domain/page/page';
import { PageVersion } from '../../../domain/page/page-version';
import { PageRepository } from '../../../domain/page/page-repository.port';
import { PageVersionRepository } from '../../../domain/page/page-version-repository.port';
import { ConcurrentChangeError, NotFoundError } from '../../../domain/shared/domain-error';
import { outboxParams, recordedEvents, writeAggregates } from '../outbox/outbox.writer';
import { requireTransaction } from '../connection/sql-statement';
import { schema } from '../typed/database';
import { type RowOf, statementVariants, typedStatement } from '../typed/statement';
import { CREATE_PAGE, CREATE_VERSION, PAGE_COUNTER_SHARDS } from './page-writes.sql';
import { touched } from '../connection/after-commit';

const FIND = statementVariants((lock: 'plain' | 'for update') =>
  typedStatement<{ id: string; tenantId: string }>()((arg) =>
    schema
      .selectFrom('pages')
      .select(['id', 'tenant_id', 'page_group_id', 'page_template_id', 'supplementary_context', 'created_at', 'updated_at'])
      .where('id', '=', arg('id'))
      .where('tenant_id', '=', arg('tenantId'))
      .$if(lock === 'for update', (qb) => qb.forUpdate()),
  ),
);
const LATEST_NUMBER = typedStatement<{ pageId: string; tenantId: string }>()((arg) =>
  schema.selectFrom('page_versions').select((eb) => eb.fn.max('number').as('latest')).where('page_id', '=', arg('pageId')).where('tenant_id', '=', arg('tenantId')),
);

function toPage(row: RowOf<ReturnType<typeof FIND>>): Page {
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

export { PAGE_COUNTER_SHARDS };

@Injectable()
export class SqlPageRepository extends PageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findById(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Page | null> {
    if (options.forUpdate) requireTransaction(this.em, 'a page read for update');
    const [row] = await FIND(options.forUpdate ? 'for update' : 'plain').rows(this.em, { id, tenantId });
    return row ? touched(toPage(row)) : null;
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

@Injectable()
export class SqlPageVersionRepository extends PageVersionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async latestNumber(tenantId: string, pageId: string): Promise<number> {
    const [row] = await LATEST_NUMBER.rows(this.em, { pageId, tenantId });
    return row?.latest ?? 0;
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
