import { Injectable } from '@nestjs/common';
import { assertActiveGroup } from '../page-group/active-group';
import { PageGroupQueries } from '../page-group/page-group.queries';
import { PageQueries } from './page.queries';
import { UtmParametersView } from './page.view';

@Injectable()
export class GetUtmParameters {
  constructor(
    private readonly groups: PageGroupQueries,
    private readonly pages: PageQueries,
  ) {}

  async execute(input: { tenantId: string; pageGroupId: string }): Promise<{ parameters: UtmParametersView }> {
    await assertActiveGroup(this.groups, input.tenantId, input.pageGroupId);
    return { parameters: await this.pages.utmParameters(input.pageGroupId) };
  }
}
