import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Template } from '../../../domain/template/template';
import { TemplateRepository } from '../../../domain/template/template-repository.port';
import { sqlRows } from '../connection/sql-statement';
import { COLUMNS, TemplateRow, toTemplate } from '../stored/template.row';

/**
 * Templates are written once and never changed (a system template by the platform, a copy by
 * duplicate), so they need none of the ORM's change tracking: a read is one prepared statement
 * and a write one INSERT, without the unit of work's flush and its BEGIN/COMMIT round trips
 * (duplicate was the slowest endpoint at half load). On the unit of work's connection when there
 * is one (sqlRows), so the demo seed's transaction sees its own templates.
 */
@Injectable()
export class SqlTemplateRepository extends TemplateRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async findVisible(tenantId: string, id: string): Promise<Template | null> {
    const rows = await sqlRows<TemplateRow>(this.em, `SELECT ${COLUMNS} FROM templates WHERE id = $1 AND (tenant_id IS NULL OR tenant_id = $2)`, [id, tenantId]);
    return rows.length === 0 ? null : toTemplate(rows[0]);
  }

  async findSystem(id: string): Promise<Template | null> {
    const rows = await sqlRows<TemplateRow>(this.em, `SELECT ${COLUMNS} FROM templates WHERE id = $1 AND tenant_id IS NULL`, [id]);
    return rows.length === 0 ? null : toTemplate(rows[0]);
  }

  async add(template: Template): Promise<void> {
    await sqlRows(
      this.em,
      `INSERT INTO templates (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        template.id, template.tenantId, template.sourcePageTemplateId, template.name, template.description, template.templateContent,
        template.isEditable, template.isSystem, template.version, template.createdAt, template.updatedAt,
      ],
    );
  }
}
