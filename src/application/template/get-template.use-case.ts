import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { TemplateRepository } from '../../domain/template/template.repository';
import { TemplateView, toTemplateView } from './template.view';

@Injectable()
export class GetTemplate {
  constructor(private readonly templates: TemplateRepository) {}

  /** A system template or one of the tenant's; NotFoundError for another tenant's or a malformed id. */
  async execute(input: { tenantId: string; templateId: string }): Promise<TemplateView> {
    const template = isTypeId(input.templateId, 'pagetemplate') ? await this.templates.findVisible(input.tenantId, input.templateId) : null;
    if (!template) throw new NotFoundError('template', input.templateId);
    return toTemplateView(template);
  }
}
