import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TEMPLATE_TYPES, type TemplateType } from '../../../application/template/template-queries.port';
import { ListQueryDto } from '../pagination/list-query.dto';
import { Optional } from '../validation/decorators';

export class ListTemplatesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: TEMPLATE_TYPES, description: '`system`: the platform’s templates only; `custom`: yours only.' })
  @Optional()
  @IsIn(TEMPLATE_TYPES, { message: `must be one of: ${TEMPLATE_TYPES.join(', ')}` })
  type?: TemplateType;
}
