import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { PageGroupQueries } from './page-group.queries';
import { PageGroupView } from './page-group.view';

@Injectable()
export class GetPageGroup {
  constructor(private readonly groups: PageGroupQueries) {}

  /** The tenant's live group, as the list shows it; NotFoundError for malformed, foreign and soft-deleted ids alike. */
  async execute(input: { tenantId: string; pageGroupId: string }): Promise<PageGroupView> {
    const group = isTypeId(input.pageGroupId, 'page') ? await this.groups.findActive(input.tenantId, input.pageGroupId) : null;
    if (!group) throw new NotFoundError('page group', input.pageGroupId);
    return group;
  }
}
