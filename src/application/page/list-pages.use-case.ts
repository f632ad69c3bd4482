import { Injectable } from '@nestjs/common';
import { PageGroupRepository } from '../../domain/page-group/page-group.repository';
import { activeGroupOrFail } from '../page-group/active-group';
import { Page, PageRequest } from '../shared/pagination';
import { PageQueries } from './page.queries';
import { PageListItemView } from './page.view';

@Injectable()
export class ListPages {
  constructor(
    private readonly groups: PageGroupRepository,
    private readonly pages: PageQueries,
  ) {}

  async execute(input: { tenantId: string; pageGroupId: string } & PageRequest): Promise<Page<PageListItemView>> {
    await activeGroupOrFail(this.groups, input.tenantId, input.pageGroupId);
    return this.pages.listByGroup(input.tenantId, input.pageGroupId, { limit: input.limit, after: input.after });
  }
}
