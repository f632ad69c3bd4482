import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { NotFoundError } from '../../domain/shared/domain-error';
import { isTypeId } from '../../domain/shared/type-id';
import { TemplateRepository } from '../../domain/template/template.repository';
import { TemplateView, toTemplateView } from './template.view';

@Injectable()
export class DuplicateTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly clock: Clock,
  ) {}

  /** Any visible template (system or own) can be copied; another tenant's is not found. */
  async execute(input: { tenantId: string; templateId: string; name?: string }): Promise<TemplateView> {
    const original = isTypeId(input.templateId, 'pagetemplate') ? await this.templates.findVisible(input.tenantId, input.templateId) : null;
    if (!original) throw new NotFoundError('template', input.templateId);
    const copy = original.duplicateFor(input.tenantId, input.name, this.clock.now());
    await this.templates.save(copy);
    return toTemplateView(copy);
  }
}
