import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/shared/clock';
import { Template } from '../../domain/template/template';
import { TemplateRepository } from '../../domain/template/template.repository';
import { TemplateView, toTemplateView } from './template.view';

/** Platform side: a template every tenant can see. */
@Injectable()
export class CreateSystemTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { name: string; templateContent: string; description?: string }): Promise<TemplateView> {
    const template = Template.createSystem(input, this.clock.now());
    await this.templates.add(template);
    return toTemplateView(template);
  }
}
