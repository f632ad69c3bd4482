import { UTM_VALUES_PER_KIND } from '../../../application/page/page.view';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ListResponseOf } from '../pagination/list-response';
import { PAGE_GROUP_STATUSES } from '../../../domain/page-group/page-group';
import { PageCreatedView, PageListItemView, UtmParametersView } from '../../../application/page/page.view';
import { PageGroupView } from '../../../application/page-group/page-group.view';
import { Holds, SameShape } from '../openapi/same-shape';

const platformObjects = (description: string) =>
  ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: `${description} Element shape is owned by the platform.` });

export class PageGroupResponse {
  @ApiProperty({ example: 'page_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageGroupId!: string;
  @ApiProperty() tenantId!: string;
  @ApiProperty({ type: String, nullable: true }) brandId!: string | null;
  @ApiProperty({ example: 'Spring sale' }) name!: string;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ type: String, nullable: true }) pageContext!: string | null;
  @ApiProperty({ type: String, nullable: true }) pageTemplateId!: string | null;
  @ApiProperty({ type: String, nullable: true }) headerActionId!: string | null;
  @ApiProperty({ enum: PAGE_GROUP_STATUSES }) status!: string;
  @ApiProperty({ type: 'integer', example: 3 }) pagesCount!: number;
  @platformObjects('Calls to action.') actions!: object[];
  @platformObjects('Footer links.') footerLinks!: object[];
  @platformObjects('Custom scripts and tracking.') scripts!: object[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Always null here: deleted groups are not listed.' }) deletedAt!: string | null;
}

export class PageGroupListResponse extends ListResponseOf(PageGroupResponse) {
  @ApiProperty({ type: 'integer', example: 20, description: 'The page size used.' }) limit!: number;
}

export class PageListItemResponse {
  @ApiProperty({ example: 'pagevar_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageId!: string;
  @ApiProperty() pageGroupId!: string;
  @ApiProperty() tenantId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class PageListResponse extends ListResponseOf(PageListItemResponse) {}

export class PageCreatedResponse {
  @ApiProperty({ example: 'pagevar_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageId!: string;
  @ApiProperty({ example: 'page_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageGroupId!: string;
  @ApiProperty({ type: String, nullable: true, example: 'pagetemplate_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageTemplateId!: string | null;
  @ApiProperty({ example: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9' }) tenantId!: string;
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1 }) supplementaryContext?: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class UtmParameters {
  @ApiProperty({ type: [String], maxItems: UTM_VALUES_PER_KIND, example: ['spring-sale'] }) utm_campaigns!: string[];
  @ApiProperty({ type: [String], maxItems: UTM_VALUES_PER_KIND, example: ['ad-a'] }) utm_contents!: string[];
  @ApiProperty({ type: [String], maxItems: UTM_VALUES_PER_KIND, example: ['cpc', 'email'] }) utm_mediums!: string[];
  @ApiProperty({ type: [String], maxItems: UTM_VALUES_PER_KIND, example: ['google', 'newsletter'] }) utm_sources!: string[];
  @ApiProperty({ type: [String], maxItems: UTM_VALUES_PER_KIND, example: ['landing pages'] }) utm_terms!: string[];
}

export class UtmParametersResponse {
  @ApiProperty({ type: UtmParameters, description: 'Distinct values seen in the group’s sessions, each array sorted; at most 1,000 per array, the most recently seen.' }) parameters!: UtmParameters;
}

// Tied to the views the controllers send (openapi/same-shape.ts).
export type PageGroupShape = Holds<SameShape<PageGroupResponse, PageGroupView>>;
export type PageListItemShape = Holds<SameShape<PageListItemResponse, PageListItemView>>;
export type PageCreatedShape = Holds<SameShape<PageCreatedResponse, PageCreatedView>>;
export type UtmParametersShape = Holds<SameShape<UtmParameters, UtmParametersView>>;
