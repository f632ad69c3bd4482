import { Injectable } from '@nestjs/common';
import { PageContentChanges } from '../../domain/page/page';
import { PageRepository } from '../../domain/page/page-repository.port';
import { PageVersionRepository } from '../../domain/page/page-version-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { ConcurrentChangeError, InvalidValueError, NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { TemplateRepository } from '../../domain/template/template-repository.port';
import { PageGroupQueries } from '../page-group/page-group-queries.port';
import { assertActiveGroup } from '../page-group/active-group';
import { foundOrFail } from '../shared/found-or-fail';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { PageVersionView, toPageVersionView } from './page.view';

const ATTEMPTS = 5;

/**
 * A new version of a page, which emits `page.version.created` in the same transaction: the
 * customer's `POST …/pages/{page_id}/versions` and the platform's `page-version:create`. Absent
 * fields carry over from the current version. The page's row is locked for the transaction, so
 * concurrent creations take the numbers one after the other; a number taken by a writer that did
 * not lock is retried with the new latest.
 */
@Injectable()
export class CreatePageVersion {
  constructor(
    private readonly pages: PageRepository,
    private readonly versions: PageVersionRepository,
    private readonly templates: TemplateRepository,
    private readonly groups: PageGroupQueries,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; pageId: string; pageGroupId?: string } & PageContentChanges): Promise<PageVersionView> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.unitOfWork.run(() => this.create(input));
      } catch (error) {
        if (!(error instanceof ConcurrentChangeError) || attempt === ATTEMPTS) throw error;
      }
    }
  }

  private async create(input: { tenantId: string; pageId: string; pageGroupId?: string } & PageContentChanges): Promise<PageVersionView> {
    // Through the API the page is addressed in its group, which must be the tenant's and live.
    if (input.pageGroupId !== undefined) await assertActiveGroup(this.groups, input.tenantId, input.pageGroupId);
    const changes: PageContentChanges = { supplementaryContext: input.supplementaryContext };
    if (input.pageTemplateId !== undefined && input.pageTemplateId !== null) {
      const visible = isTypeId(input.pageTemplateId, 'pagetemplate') ? await this.templates.findVisible(input.tenantId, input.pageTemplateId) : null;
      if (!visible) throw new InvalidValueError('pageTemplateId', 'must be the id of a system template or of one of your templates');
      changes.pageTemplateId = visible.id;
    } else if (input.pageTemplateId === null) changes.pageTemplateId = null;
    const page = await foundOrFail('page', 'pagevar', input.pageId, () => this.pages.findById(input.tenantId, input.pageId, { forUpdate: true }));
    if (input.pageGroupId !== undefined && page.pageGroupId !== input.pageGroupId) throw new NotFoundError('page', input.pageId);
    const version = page.newVersion(await this.versions.latestNumber(page.tenantId, page.id), changes, this.clock.now());
    await this.versions.add(page, version);
    return toPageVersionView(version);
  }
}
