import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Template } from '../../../domain/template/template';
import { TemplateRepository } from '../../../domain/template/template-repository.port';
import { TEMPLATE_COLUMNS, toTemplate } from '../stored/template-record';
import { schema } from '../typed/database';
import { typedStatement } from '../typed/statement';

const FIND_VISIBLE = typedStatement<{ id: string; tenantId: string }>()((arg) =>
  schema
    .selectFrom('templates')
    .select(TEMPLATE_COLUMNS)
    .where('id', '=', arg('id'))
    .where((eb) => eb.or([eb('tenant_id', 'is', null), eb('tenant_id', '=', arg('tenantId'))])),
);
const FIND_SYSTEM = typedStatement<{ id: string }>()((arg) =>
  schema.selectFrom('templates').select(TEMPLATE_COLUMNS).where('id', '=', arg('id')).where('tenant_id', 'is', null),
);
type Written = Pick<Template, 'id' | 'tenantId' | 'sourcePageTemplateId' | 'name' | 'description' | 'templateContent' | 'isEditable' | 'isSystem' | 'version' | 'createdAt' | 'updatedAt'>;
const ADD = typedStatement<Written>()((t) =>
  schema.insertInto('templates').values({
    id: t('id'), tenant_id: t('tenantId'), source_page_template_id: t('sourcePageTemplateId'), name: t('name'), description: t('description'),
    template_content: t('templateContent'), is_editable: t('isEditable'), is_system: t('isSystem'), version: t('version'),
    created_at: t('createdAt'), updated_at: t('updatedAt'),
  }),
);

/**
 * Templates are written once and never changed (a system template by the platform, a copy by
 * duplicate), so they need none of the ORM's change tracking: a read is one prepared statement
 * and a write one INSERT, without the unit of work's flush and its BEGIN/COMMIT round trips
 * (duplicate was the slowest endpoint at half load). On the unit of work's connection when there
 * is one, so the demo seed's transaction sees its own templates.
 */
@Injectable()
export class SqlTemplateRepository extends TemplateRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findVisible(tenantId: string, id: string): Promise<Template | null> {
    const [row] = await FIND_VISIBLE.rows(this.em, { id, tenantId });
    return row ? toTemplate(row) : null;
  }

  async findSystem(id: string): Promise<Template | null> {
    const [row] = await FIND_SYSTEM.rows(this.em, { id });
    return row ? toTemplate(row) : null;
  }

  async add(template: Template): Promise<void> {
    await ADD.count(this.em, template);
  }
}
