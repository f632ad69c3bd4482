import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { PageGroup } from '../../../domain/page-group/page-group';
import { PageGroupRepository } from '../../../domain/page-group/page-group.repository';
import { sqlRows } from '../sql-statement';

@Injectable()
export class MikroOrmPageGroupRepository extends PageGroupRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findActiveById(tenantId: string, id: string): Promise<PageGroup | null> {
    return this.em.findOne(PageGroup, { id, tenantId, deletedAt: null });
  }

  async findActiveDefaults(tenantId: string, id: string): Promise<{ pageTemplateId: string | null } | null> {
    const rows = await sqlRows<{ page_template_id: string | null }>(
      this.em,
      'SELECT page_template_id FROM page_groups WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL',
      [id, tenantId],
    );
    return rows.length === 0 ? null : { pageTemplateId: rows[0].page_template_id };
  }

  async save(group: PageGroup): Promise<void> {
    await this.em.persist(group).flush();
  }
}
