import { Injectable } from '@nestjs/common';
import { assertActiveGroup } from '../page-group/active-group';
import { PageGroupQueries } from '../page-group/page-group-queries.port';
import { foundOrFail } from '../shared/found-or-fail';
import { ListRequest, ListSlice } from '../shared/pagination';
import { PageQueries } from './page-queries.port';
import { PageVersionView } from './page.view';

@Injectable()
export class ListPageVersions {
  constructor(
    private readonly groups: PageGroupQueries,
    private readonly pages: PageQueries,
  ) {}

  async execute(input: { tenantId: string; pageGroupId: string; pageId: string } & ListRequest): Promise<ListSlice<PageVersionView>> {
    await assertActiveGroup(this.groups, input.tenantId, input.pageGroupId);
    await foundOrFail('page', 'pagevar', input.pageId, () => this.pages.isInGroup(input.tenantId, input.pageGroupId, input.pageId));
    return this.pages.listVersions(input.tenantId, input.pageId, { limit: input.limit, after: input.after });
  }
}
