import { ApiSchema } from '@nestjs/swagger';
import { PageTemplateIdField, SupplementaryContextField } from '../page-groups/page-content.fields';

@ApiSchema({ name: 'CreatePageVersionRequest' })
export class CreatePageVersionDto {
  @PageTemplateIdField('A system template or one of yours. Absent: the current version’s; null: none.')
  pageTemplateId?: string | null;

  @SupplementaryContextField('Extra context added to the page group context. Absent: the current version’s; null: none.', 'Visitors come from the autumn newsletter.')
  supplementaryContext?: string | null;
}
