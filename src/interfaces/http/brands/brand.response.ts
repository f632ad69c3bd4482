import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ListResponseOf } from '../pagination/list-response';
import { APPEARANCES } from '../../../domain/brand/brand.state';
import { BrandView } from '../../../domain/brand/brand.view';
import { Theme } from '../../../domain/brand/theme';
import { Holds, SameShape } from '../openapi/same-shape';

// Response schemas for OpenAPI only: controllers return the application's views, which have
// exactly these fields (decisions.md, Response shapes).

const nullableString = (description?: string) => ApiProperty({ type: String, nullable: true, description });

export class ThemeResponse {
  @nullableString('CSS hex colour') borderColor!: string | null;
  @nullableString('CSS hex colour') buttonBackgroundColor!: string | null;
  @nullableString('CSS hex colour') buttonTextColor!: string | null;
  @nullableString('CSS hex colour') mutedTextColor!: string | null;
  @nullableString('CSS hex colour') pageBackgroundColor!: string | null;
  @nullableString('CSS hex colour') pageForegroundColor!: string | null;
  @nullableString('CSS hex colour') secondaryAccentColor!: string | null;
  @nullableString('CSS hex colour') sectionCardHighlightColor!: string | null;
  @nullableString('Set by platform uploads; null for images given by URL.') faviconFileId!: string | null;
  @nullableString() faviconUrl!: string | null;
  @nullableString('Set by platform uploads; null for images given by URL.') logoFileId!: string | null;
  @nullableString() logoUrl!: string | null;
  @nullableString('Set by platform uploads; null for images given by URL.') logoIconFileId!: string | null;
  @nullableString() logoIconUrl!: string | null;
}

export class BrandResponse {
  @ApiProperty({ example: 'brand_01jdq8x0m2f3e4r5t6y7u8i9o0' }) brandId!: string;
  @ApiProperty({ example: 'Acme' }) name!: string;
  @ApiProperty({ enum: APPEARANCES }) preferredAppearance!: string;
  @ApiProperty({ example: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9' }) tenantId!: string;
  @ApiProperty({ type: ThemeResponse }) themeLight!: ThemeResponse;
  @ApiProperty({ type: ThemeResponse }) themeDark!: ThemeResponse;
  @ApiPropertyOptional({ format: 'uri', description: 'Omitted when unset.' }) companyHomePage?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class BrandListResponse extends ListResponseOf(BrandResponse) {}

// Tied to the views the controllers send (openapi/same-shape.ts).
export type ThemeShape = Holds<SameShape<ThemeResponse, Theme>>;
export type BrandShape = Holds<SameShape<BrandResponse, BrandView>>;
