import { Injectable } from '@nestjs/common';
import { PageGroupRepository } from '../../domain/page-group/page-group-repository.port';
import { Clock } from '../../domain/shared/clock.port';
import { activeGroupOrFail } from './active-group';
import { UnitOfWork } from '../shared/unit-of-work.port';

/** Platform side: soft-deletes a group; deleting it again is "not found". */
@Injectable()
export class DeletePageGroup {
  constructor(
    private readonly groups: PageGroupRepository,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(input: { tenantId: string; pageGroupId: string }): Promise<{ pageGroupId: string; deletedAt: string }> {
    return this.unitOfWork.run(async () => {
      const group = await activeGroupOrFail(this.groups, input.tenantId, input.pageGroupId, { forUpdate: true });
      group.softDelete(this.clock.now());
      await this.groups.save(group);
      return { pageGroupId: group.id, deletedAt: group.deletedAt!.toISOString() };
    });
  }
}
