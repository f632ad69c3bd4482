import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageGroup } from '../../../domain/page-group/page-group';
import { PageGroupRepository } from '../../../domain/page-group/page-group.repository';

@Injectable()
export class MikroOrmPageGroupRepository extends PageGroupRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findActiveById(tenantId: string, id: string): Promise<PageGroup | null> {
    return this.em.findOne(PageGroup, { id, tenantId, deletedAt: null });
  }

  async save(group: PageGroup): Promise<void> {
    await this.em.persist(group).flush();
  }
}
