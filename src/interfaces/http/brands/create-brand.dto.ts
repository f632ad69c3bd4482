import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BRAND_NAME_MAX } from '../../../domain/brand/brand';
import { APPEARANCES, type Appearance } from '../../../domain/brand/brand.state';
import { MAX_URL_LENGTH } from '../../../domain/shared/rules';
import { OptionalNullable, Required } from '../validation/decorators';
import { ThemeField, ThemeRequestDto } from './theme-request.dto';
import { AppearanceRules, BrandNameRules, HomePageRules } from './brand-fields';

@ApiSchema({ name: 'CreateBrandRequest' })
export class CreateBrandDto {
  @ApiProperty({ minLength: 1, maxLength: BRAND_NAME_MAX, example: 'Acme' })
  @Required()
  @BrandNameRules()
  name!: string;

  @ApiProperty({ enum: APPEARANCES, example: 'system' })
  @Required()
  @AppearanceRules()
  preferredAppearance!: Appearance;

  @ThemeField('create')
  themeDark!: ThemeRequestDto;

  @ThemeField('create')
  themeLight!: ThemeRequestDto;

  // `type` and `nullable` stated: from `string | null` the plugin can only infer `object`.
  @ApiPropertyOptional({ type: String, format: 'uri', maxLength: MAX_URL_LENGTH, nullable: true, example: 'https://acme.example', description: 'null is the same as leaving it out.' })
  @OptionalNullable()
  @HomePageRules()
  companyHomePage?: string | null;
}
