import { Injectable } from '@nestjs/common';
import { PageGroupQueries } from './page-group-queries.port';
import { PageGroupView } from './page-group.view';
import { JsonText } from '../shared/json-text';
import { foundOrFail } from '../shared/found-or-fail';

@Injectable()
export class GetPageGroup {
  constructor(private readonly groups: PageGroupQueries) {}

  /** The tenant's live group, as the list shows it; NotFoundError for malformed, foreign and soft-deleted ids alike. */
  async execute(input: { tenantId: string; pageGroupId: string }): Promise<JsonText<PageGroupView>> {
    return foundOrFail('page group', 'page', input.pageGroupId, () => this.groups.findActive(input.tenantId, input.pageGroupId));
  }
}
