import { Injectable } from '@nestjs/common';
import { assertActiveGroup } from '../page-group/active-group';
import { PageGroupQueries } from '../page-group/page-group-queries.port';
import { ListSlice, ListRequest } from '../shared/pagination';
import { PageQueries } from './page-queries.port';
import { PageListItemView } from './page.view';

@Injectable()
export class ListPages {
  constructor(
    private readonly groups: PageGroupQueries,
    private readonly pages: PageQueries,
  ) {}

  async execute(input: { tenantId: string; pageGroupId: string } & ListRequest): Promise<ListSlice<PageListItemView>> {
    await assertActiveGroup(this.groups, input.tenantId, input.pageGroupId);
    return this.pages.listByGroup(input.tenantId, input.pageGroupId, { limit: input.limit, after: input.after });
  }
}
