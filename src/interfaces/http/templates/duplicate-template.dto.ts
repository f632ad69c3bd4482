import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { TEMPLATE_NAME_MAX } from '../../../domain/template/template';
import { Optional } from '../validation/decorators';

@ApiSchema({ name: 'DuplicateTemplateRequest' })
export class DuplicateTemplateDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: TEMPLATE_NAME_MAX, description: 'Name of the copy; default `Copy of <original name>`.', example: 'My landing template' })
  @Optional()
  @Length(1, TEMPLATE_NAME_MAX, { message: `must be 1 to ${TEMPLATE_NAME_MAX} characters` })
  @IsString({ message: 'must be a string' })
  name?: string;
}
