import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import { BRAND_NAME_MAX } from '../../../domain/brand/brand';
import { APPEARANCES, type Appearance } from '../../../domain/brand/brand.state';
import { MAX_URL_LENGTH } from '../../../domain/shared/rules';
import { IsHttpUrl, OptionalNullable, Required } from '../validation/decorators';
import { ThemeField, ThemeRequestDto } from './theme-request.dto';

@ApiSchema({ name: 'CreateBrandRequest' })
export class CreateBrandDto {
  @ApiProperty({ minLength: 1, maxLength: BRAND_NAME_MAX, example: 'Acme' })
  @Required()
  @Length(1, BRAND_NAME_MAX, { message: `must be 1 to ${BRAND_NAME_MAX} characters` })
  @IsString({ message: 'must be a string' })
  name!: string;

  @ApiProperty({ enum: APPEARANCES, example: 'system' })
  @Required()
  @IsIn(APPEARANCES, { message: `must be one of: ${APPEARANCES.join(', ')}` })
  preferredAppearance!: Appearance;

  @ThemeField('create')
  themeDark!: ThemeRequestDto;

  @ThemeField('create')
  themeLight!: ThemeRequestDto;

  // `type` and `nullable` stated: from `string | null` the plugin can only infer `object`.
  @ApiPropertyOptional({ type: String, format: 'uri', maxLength: MAX_URL_LENGTH, nullable: true, example: 'https://acme.example', description: 'null is the same as leaving it out.' })
  @OptionalNullable()
  @IsHttpUrl()
  @IsString({ message: 'must be a string' })
  companyHomePage?: string | null;
}
