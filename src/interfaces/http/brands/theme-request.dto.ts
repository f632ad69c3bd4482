import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, ValidateNested } from 'class-validator';
import { IMAGE_REFERENCE_TYPES } from '../../../domain/brand/theme';
import { MAX_URL_LENGTH } from '../../../domain/shared/rules';
import { IsCssHexColour, IsHttpUrl, Optional, OptionalNullable, Required } from '../validation/decorators';

@ApiSchema({ name: 'ImageReference' })
export class ImageReferenceDto {
  @ApiProperty({ enum: IMAGE_REFERENCE_TYPES, example: 'url' })
  @Required()
  @IsIn(IMAGE_REFERENCE_TYPES, { message: `must be one of: ${IMAGE_REFERENCE_TYPES.join(', ')}` })
  type!: 'url';

  @ApiProperty({ format: 'uri', maxLength: MAX_URL_LENGTH, example: 'https://cdn.example.com/logo.svg' })
  @Required()
  @IsHttpUrl()
  @IsString({ message: 'must be a string' })
  url!: string;
}

const colour = (example: string) =>
  ApiPropertyOptional({ type: String, nullable: true, pattern: '^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$', example });
const image = () => ApiPropertyOptional({ type: ImageReferenceDto, nullable: true });

/**
 * Theme (request). Every field optional (decisions.md, Brands); on PATCH, null clears a field and
 * an absent one keeps its value.
 */
@ApiSchema({ name: 'ThemeRequest' })
export class ThemeRequestDto {
  @colour('#e5e7eb') @OptionalNullable() @IsCssHexColour() borderColor?: string | null;
  @colour('#4f46e5') @OptionalNullable() @IsCssHexColour() buttonBackgroundColor?: string | null;
  @colour('#ffffff') @OptionalNullable() @IsCssHexColour() buttonTextColor?: string | null;
  @colour('#6b7280') @OptionalNullable() @IsCssHexColour() mutedTextColor?: string | null;
  @colour('#ffffff') @OptionalNullable() @IsCssHexColour() pageBackgroundColor?: string | null;
  @colour('#111827') @OptionalNullable() @IsCssHexColour() pageForegroundColor?: string | null;
  @colour('#f59e0b') @OptionalNullable() @IsCssHexColour() secondaryAccentColor?: string | null;
  @colour('#eef2ff') @OptionalNullable() @IsCssHexColour() sectionCardHighlightColor?: string | null;

  @image() @OptionalNullable() @IsObject({ message: 'must be an object' }) @ValidateNested() @Type(() => ImageReferenceDto)
  favicon?: ImageReferenceDto | null;

  @image() @OptionalNullable() @IsObject({ message: 'must be an object' }) @ValidateNested() @Type(() => ImageReferenceDto)
  logo?: ImageReferenceDto | null;

  @image() @OptionalNullable() @IsObject({ message: 'must be an object' }) @ValidateNested() @Type(() => ImageReferenceDto)
  logoIcon?: ImageReferenceDto | null;
}

/**
 * `themeLight` or `themeDark` of a brand body: an object checked as ThemeRequestDto, required on
 * create and merged field by field on PATCH. Listed in the order stacked decorators run (the
 * last first), so the checks and their messages come as they did written out.
 */
export function ThemeField(use: 'create' | 'patch'): PropertyDecorator {
  return applyDecorators(
    Type(() => ThemeRequestDto),
    ValidateNested(),
    IsObject({ message: 'must be an object' }),
    use === 'create' ? Required() : Optional(),
    use === 'create' ? ApiProperty({ type: ThemeRequestDto }) : ApiPropertyOptional({ type: ThemeRequestDto, description: 'Merged field by field into the current theme.' }),
  );
}
