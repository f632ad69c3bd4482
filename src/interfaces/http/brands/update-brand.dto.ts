import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import { BRAND_NAME_MAX } from '../../../domain/brand/brand';
import { APPEARANCES, type Appearance } from '../../../domain/brand/brand.state';
import { MAX_URL_LENGTH } from '../../../domain/shared/rules';
import { IsHttpUrl, Optional, OptionalNullable } from '../validation/decorators';
import { ThemeField, ThemeRequestDto } from './theme-request.dto';

/** JSON merge patch of a brand (RFC 7396): absent keeps, null clears a nullable field. */
@ApiSchema({ name: 'UpdateBrandRequest' })
export class UpdateBrandDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: BRAND_NAME_MAX, description: 'Cannot be null.' })
  @Optional()
  @Length(1, BRAND_NAME_MAX, { message: `must be 1 to ${BRAND_NAME_MAX} characters` })
  @IsString({ message: 'must be a string' })
  name?: string;

  @ApiPropertyOptional({ enum: APPEARANCES, description: 'Cannot be null.' })
  @Optional()
  @IsIn(APPEARANCES, { message: `must be one of: ${APPEARANCES.join(', ')}` })
  preferredAppearance?: Appearance;

  @ThemeField('patch')
  themeDark?: ThemeRequestDto;

  @ThemeField('patch')
  themeLight?: ThemeRequestDto;

  @ApiPropertyOptional({ type: String, format: 'uri', maxLength: MAX_URL_LENGTH, nullable: true, example: 'https://acme.example', description: 'null removes it.' })
  @OptionalNullable()
  @IsHttpUrl()
  @IsString({ message: 'must be a string' })
  companyHomePage?: string | null;
}
