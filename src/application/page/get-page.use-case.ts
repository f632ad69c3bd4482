import { Injectable } from '@nestjs/common';
import { assertActiveGroup } from '../page-group/active-group';
import { PageGroupQueries } from '../page-group/page-group-queries.port';
import { foundOrFail } from '../shared/found-or-fail';
import { PageQueries } from './page-queries.port';
import { PageView } from './page.view';

@Injectable()
export class GetPage {
  constructor(
    private readonly groups: PageGroupQueries,
    private readonly pages: PageQueries,
  ) {}

  /** The page of a live group of the tenant; NotFoundError for the group or the page otherwise. */
  async execute(input: { tenantId: string; pageGroupId: string; pageId: string }): Promise<PageView> {
    await assertActiveGroup(this.groups, input.tenantId, input.pageGroupId);
    return foundOrFail('page', 'pagevar', input.pageId, () => this.pages.findInGroup(input.tenantId, input.pageGroupId, input.pageId));
  }
}
