import { ApiSchema } from '@nestjs/swagger';
import { PageTemplateIdField, SupplementaryContextField } from './page-content.fields';

@ApiSchema({ name: 'CreatePageRequest' })
export class CreatePageDto {
  @PageTemplateIdField("A system template or one of yours; defaults to the page group's template. null means the default too.")
  pageTemplateId?: string | null;

  @SupplementaryContextField('Extra context added to the page group context.', 'Visitors come from the spring newsletter.')
  supplementaryContext?: string | null;
}
