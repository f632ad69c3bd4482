import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DuplicateTemplate } from '../../../application/template/duplicate-template.use-case';
import { GetTemplate } from '../../../application/template/get-template.use-case';
import { ListTemplates } from '../../../application/template/list-templates.use-case';
import { TemplateView } from '../../../application/template/template.view';
import { Tagged, TaggedAnswer } from '../conditional/tagged-answer.decorator';
import { TenantId } from '../guards/tenant.decorator';
import { DuplicateTemplateDto } from './duplicate-template.dto';
import { ListEnvelope, toEnvelope } from '../pagination/list-envelope';
import { toListRequest } from '../pagination/list-request';
import { ListTemplatesQueryDto } from './list-templates.query';
import { TemplateListResponse, TemplateResponse } from './template.response';
import { CreateUnder, FetchOne, ListMany } from '../routes/resource-route.decorators';

@ApiTags('Templates')
@Controller('v0/templates')
export class TemplatesController {
  constructor(
    private readonly duplicateTemplate: DuplicateTemplate,
    private readonly listTemplates: ListTemplates,
    private readonly getTemplate: GetTemplate,
  ) {}

  @ListMany('templates:read', { summary: 'List templates', description: 'The platform’s system templates and your own (custom) ones, newest first; `type` keeps one kind.' }, TemplateListResponse)
  async list(@TenantId() tenantId: string, @Query() query: ListTemplatesQueryDto): Promise<ListEnvelope<TemplateView>> {
    // The cursor is bound to the filter: a cursor of the `system` list is refused by the others.
    const list = `templates:${query.type ?? '*'}`;
    return toEnvelope(list, await this.listTemplates.execute({ tenantId, type: query.type, ...toListRequest(list, 'pagetemplate', query) }));
  }

  @FetchOne(':template_id', 'templates:read', { summary: 'Fetch a template', description: 'A system template or one of yours; another tenant’s is not found.' }, TemplateResponse)
  async get(@TenantId() tenantId: string, @Param('template_id') templateId: string, @Tagged() answer: TaggedAnswer): Promise<string | undefined> {
    return answer(await this.getTemplate.execute({ tenantId, templateId }));
  }

  @CreateUnder(':template_id/duplicate', 'templates:write', {
    summary: 'Duplicate a template',
    description: 'Copies a system template or one of yours into a new editable template of yours (version 1). The body may be omitted.',
  }, DuplicateTemplateDto, TemplateResponse)
  duplicate(@TenantId() tenantId: string, @Param('template_id') templateId: string, @Body() body: DuplicateTemplateDto): Promise<TemplateView> {
    return this.duplicateTemplate.execute({ tenantId, templateId, name: body.name });
  }
}
