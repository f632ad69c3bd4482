import { Injectable } from '@nestjs/common';
import { PageGroupStatus } from '../../domain/page-group/page-group';
import { JsonText } from '../shared/json-text';
import { ListSlice, ListRequest } from '../shared/pagination';
import { PageGroupQueries } from './page-group-queries.port';
import { PageGroupView } from './page-group.view';

@Injectable()
export class ListPageGroups {
  constructor(private readonly groups: PageGroupQueries) {}

  execute(input: { tenantId: string; status?: PageGroupStatus } & ListRequest): Promise<ListSlice<JsonText<PageGroupView>>> {
    return this.groups.list(input.tenantId, { status: input.status }, { limit: input.limit, after: input.after });
  }
}
