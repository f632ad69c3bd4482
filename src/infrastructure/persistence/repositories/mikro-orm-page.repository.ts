import { randomInt } from 'node:crypto';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Page } from '../../../domain/page/page';
import { PageVersion } from '../../../domain/page/page-version';
import { PageRepository, PageVersionRepository } from '../../../domain/page/page.repository';
import { ConcurrentChangeError, NotFoundError } from '../../../domain/shared/domain-error';
import { committingOutbox } from '../outbox/outbox-wake';
import { writeToOutbox } from '../outbox/outbox.writer';

/** Each group's count of pages is spread over this many rows (Migration...20261123000000). */
export const PAGE_COUNTER_SHARDS = 8;

@Injectable()
export class MikroOrmPageRepository extends PageRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findById(tenantId: string, id: string): Promise<Page | null> {
    return this.em.findOne(Page, { id, tenantId });
  }

  async saveNew(page: Page, firstVersion: PageVersion): Promise<void> {
    await committingOutbox(this.em, () => this.em.transactional(async (em) => {
      // Two flushes: the ORM knows no relation between them, so it would not order the inserts.
      await em.persist(page).flush();
      await em.persist(firstVersion).flush();
      await writeToOutbox(em, firstVersion.peekEvents());
      // The counter last: it locks one of the group's counter rows until COMMIT, so the lock is
      // held only for this statement and the commit's flush; the row is picked at random, so
      // concurrent pages of one group seldom wait for each other. Still exact: a delete that committed first has set `live` false (trigger of
      // Migration...20261123000000), so this matches nothing (READ COMMITTED re-reads the row
      // after the wait) and the whole transaction rolls back with 404; a delete that comes later
      // waits for this commit. 50 parallel creations count 50.
      const bumped = await em.execute<{ page_group_id: string }[]>(
        'UPDATE page_group_counters SET pages_count = pages_count + 1 WHERE page_group_id = ? AND shard = ? AND tenant_id = ? AND live RETURNING page_group_id',
        [page.pageGroupId, randomInt(PAGE_COUNTER_SHARDS), page.tenantId],
      );
      if (bumped.length === 0) throw new NotFoundError('page group', page.pageGroupId);
    }));
    firstVersion.pullEvents();
  }
}

@Injectable()
export class MikroOrmPageVersionRepository extends PageVersionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async latestNumber(tenantId: string, pageId: string): Promise<number> {
    const rows = await this.em.execute<{ latest: number | null }[]>(
      'SELECT max(number) AS latest FROM page_versions WHERE page_id = ? AND tenant_id = ?',
      [pageId, tenantId],
    );
    return rows[0]?.latest ?? 0;
  }

  async saveNew(version: PageVersion): Promise<void> {
    try {
      await committingOutbox(this.em, () => this.em.transactional(async (em) => {
        em.persist(version);
        await em.flush();
        await em.execute('UPDATE pages SET updated_at = greatest(updated_at, ?) WHERE id = ?', [version.createdAt, version.pageId], 'run');
        await writeToOutbox(em, version.peekEvents());
      }));
      version.pullEvents();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new ConcurrentChangeError(`page ${version.pageId}`);
      throw error;
    }
  }
}
