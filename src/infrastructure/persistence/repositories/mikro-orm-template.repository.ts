import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Template } from '../../../domain/template/template';
import { TemplateRepository } from '../../../domain/template/template.repository';

@Injectable()
export class MikroOrmTemplateRepository extends TemplateRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findVisible(tenantId: string, id: string): Promise<Template | null> {
    return this.em.findOne(Template, { id, $or: [{ tenantId: null }, { tenantId }] });
  }

  findSystem(id: string): Promise<Template | null> {
    return this.em.findOne(Template, { id, tenantId: null });
  }

  async save(template: Template): Promise<void> {
    await this.em.persist(template).flush();
  }
}
