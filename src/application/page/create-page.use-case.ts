import { Injectable } from '@nestjs/common';
import { Page } from '../../domain/page/page';
import { PageRepository } from '../../domain/page/page-repository.port';
import { PageGroupRepository } from '../../domain/page-group/page-group-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { InvalidValueError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { TemplateRepository } from '../../domain/template/template-repository.port';
import { PageCreatedView, toPageCreatedView } from './page.view';
import { foundOrFail } from '../shared/found-or-fail';
import { UnitOfWork } from '../shared/unit-of-work.port';

/**
 * Adds a page to a group: the page, its version 1 and `page.version.created` in one transaction,
 * with the group's `pagesCount` (decisions.md, Page groups and pages).
 */
@Injectable()
export class CreatePage {
  constructor(
    private readonly groups: PageGroupRepository,
    private readonly templates: TemplateRepository,
    private readonly pages: PageRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; pageGroupId: string; pageTemplateId?: string; supplementaryContext?: string }): Promise<PageCreatedView> {
    return this.unitOfWork.runOneWrite(() => this.create(input));
  }

  private async create(input: { tenantId: string; pageGroupId: string; pageTemplateId?: string; supplementaryContext?: string }): Promise<PageCreatedView> {
    // The group's defaults only: the page's own statement checks again that the group is live.
    const group = await foundOrFail('page group', 'page', input.pageGroupId, () => this.groups.findDefaults(input.tenantId, input.pageGroupId));
    let templateId = group.pageTemplateId;
    if (input.pageTemplateId !== undefined) {
      const visible = isTypeId(input.pageTemplateId, 'pagetemplate') ? await this.templates.findVisible(input.tenantId, input.pageTemplateId) : null;
      if (!visible) throw new InvalidValueError('pageTemplateId', 'must be the id of a system template or of one of your templates');
      templateId = visible.id;
    }
    const { page, firstVersion } = Page.create(
      { tenantId: input.tenantId, pageGroupId: input.pageGroupId, pageTemplateId: templateId, supplementaryContext: input.supplementaryContext },
      this.clock.now(),
    );
    await this.pages.add(page, firstVersion);
    return toPageCreatedView(page);
  }
}
