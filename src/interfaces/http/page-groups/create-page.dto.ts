import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { SUPPLEMENTARY_CONTEXT_MAX } from '../../../domain/page/page';
import { OptionalNullable } from '../validation/decorators';

@ApiSchema({ name: 'CreatePageRequest' })
export class CreatePageDto {
  // `type` stated: from `string | null` the plugin can only infer `object`.
  @ApiPropertyOptional({
    type: String,
    description: "A system template or one of yours; defaults to the page group's template. null means the default too.",
    example: 'pagetemplate_01jdq8x0m2f3e4r5t6y7u8i9o0',
    nullable: true,
  })
  @OptionalNullable()
  @Length(1, 100, { message: 'must be the id of a system template or of one of your templates' })
  @IsString({ message: 'must be a string' })
  pageTemplateId?: string | null;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: SUPPLEMENTARY_CONTEXT_MAX,
    description: 'Extra context added to the page group context.',
    example: 'Visitors come from the spring newsletter.',
    nullable: true,
  })
  @OptionalNullable()
  @Length(1, SUPPLEMENTARY_CONTEXT_MAX, { message: `must be 1 to ${SUPPLEMENTARY_CONTEXT_MAX} characters` })
  @IsString({ message: 'must be a string' })
  supplementaryContext?: string | null;
}
