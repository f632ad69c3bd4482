import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BRAND_NAME_MAX } from '../../../domain/brand/brand';
import { APPEARANCES, type Appearance } from '../../../domain/brand/brand.state';
import { MAX_URL_LENGTH } from '../../../domain/shared/rules';
import { Optional, OptionalNullable } from '../validation/decorators';
import { ThemeField, ThemeRequestDto } from './theme-request.dto';
import { AppearanceRules, BrandNameRules, HomePageRules } from './brand-fields';

/** JSON merge patch of a brand (RFC 7396): absent keeps, null clears a nullable field. */
@ApiSchema({ name: 'UpdateBrandRequest' })
export class UpdateBrandDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: BRAND_NAME_MAX, description: 'Cannot be null.' })
  @Optional()
  @BrandNameRules()
  name?: string;

  @ApiPropertyOptional({ enum: APPEARANCES, description: 'Cannot be null.' })
  @Optional()
  @AppearanceRules()
  preferredAppearance?: Appearance;

  @ThemeField('patch')
  themeDark?: ThemeRequestDto;

  @ThemeField('patch')
  themeLight?: ThemeRequestDto;

  @ApiPropertyOptional({ type: String, format: 'uri', maxLength: MAX_URL_LENGTH, nullable: true, example: 'https://acme.example', description: 'null removes it.' })
  @OptionalNullable()
  @HomePageRules()
  companyHomePage?: string | null;
}
