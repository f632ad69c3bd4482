import { Injectable } from '@nestjs/common';
import { PageGroupStatus } from '../../domain/page-group/page-group';
import { PageGroupRepository } from '../../domain/page-group/page-group-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { activeGroupOrFail } from './active-group';
import { PageGroupView, toPageGroupView } from './page-group.view';
import { UnitOfWork } from '../shared/unit-of-work.port';

/** Platform side: publishes, archives or drafts a group. */
@Injectable()
export class SetPageGroupStatus {
  constructor(
    private readonly groups: PageGroupRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; pageGroupId: string; status: PageGroupStatus }): Promise<PageGroupView> {
    return this.unitOfWork.run(async () => {
      const group = await activeGroupOrFail(this.groups, input.tenantId, input.pageGroupId, { forUpdate: true });
      group.setStatus(input.status, this.clock.now());
      await this.groups.save(group);
      return toPageGroupView(group);
    });
  }
}
