import { Injectable } from '@nestjs/common';
import { PageGroupStatus } from '../../domain/page-group/page-group';
import { PageGroupRepository } from '../../domain/page-group/page-group.repository';
import { Clock } from '../../domain/shared/clock';
import { activeGroupOrFail } from './active-group';
import { PageGroupView, toPageGroupView } from './page-group.view';

/** Platform side: publishes, archives or drafts a group. */
@Injectable()
export class SetPageGroupStatus {
  constructor(
    private readonly groups: PageGroupRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { tenantId: string; pageGroupId: string; status: PageGroupStatus }): Promise<PageGroupView> {
    const group = await activeGroupOrFail(this.groups, input.tenantId, input.pageGroupId);
    group.setStatus(input.status, this.clock.now());
    await this.groups.save(group);
    return toPageGroupView(group);
  }
}
