import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { DuplicateTemplate } from '../../../application/template/duplicate-template.use-case';
import { TemplateView } from '../../../application/template/template.view';
import { ApiErrors, ApiIdempotent } from '../errors/error-responses.decorator';
import { TenantId } from '../guards/tenant.decorator';
import { DuplicateTemplateDto } from './duplicate-template.dto';
import { TemplateResponse } from './template.response';

@ApiTags('Templates')
@ApiSecurity('apiKey')
@Controller('v0/templates')
export class TemplatesController {
  constructor(private readonly duplicateTemplate: DuplicateTemplate) {}

  @Post(':template_id/duplicate')
  @HttpCode(201)
  @ApiIdempotent()
  @ApiOperation({
    summary: 'Duplicate a template',
    description: 'Copies a system template or one of yours into a new editable template of yours (version 1). The body may be omitted.',
  })
  @ApiBody({ type: DuplicateTemplateDto, required: false })
  @ApiCreatedResponse({ type: TemplateResponse })
  @ApiErrors(400, 404, 413, 415)
  duplicate(@TenantId() tenantId: string, @Param('template_id') templateId: string, @Body() body: DuplicateTemplateDto): Promise<TemplateView> {
    return this.duplicateTemplate.execute({ tenantId, templateId, name: body.name });
  }
}
