import { Injectable } from '@nestjs/common';
import { PageGroupRepository } from '../../domain/page-group/page-group.repository';
import { activeGroupOrFail } from '../page-group/active-group';
import { PageQueries } from './page.queries';
import { UtmParametersView } from './page.view';

@Injectable()
export class GetUtmParameters {
  constructor(
    private readonly groups: PageGroupRepository,
    private readonly pages: PageQueries,
  ) {}

  async execute(input: { tenantId: string; pageGroupId: string }): Promise<{ parameters: UtmParametersView }> {
    await activeGroupOrFail(this.groups, input.tenantId, input.pageGroupId);
    return { parameters: await this.pages.utmParameters(input.pageGroupId) };
  }
}
