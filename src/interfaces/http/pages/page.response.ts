import { ApiProperty } from '@nestjs/swagger';
import { ListResponseOf } from '../pagination/list-response';
import { PAGE_STATS_TOP_VALUES, UTM_TOP_CANDIDATES } from '../../../application/page/page.view';
import { STATS_INTERVALS } from '../../../domain/page/stats-range';
import { PageStatsView, PageVersionView, PageView } from '../../../application/page/page.view';
import { Holds, SameShape } from '../openapi/same-shape';

export class PageResponse {
  @ApiProperty({ example: 'pagevar_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageId!: string;
  @ApiProperty({ example: 'page_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageGroupId!: string;
  @ApiProperty({ example: 'tenant_01jdq8w9k1a2b3c4d5e6f7g8h9' }) tenantId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', description: 'Moves forward with each new version.' }) updatedAt!: string;
  @ApiProperty({ type: String, nullable: true, example: 'pagetemplate_01jdq8x0m2f3e4r5t6y7u8i9o0', description: 'The current version’s.' }) pageTemplateId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The current version’s.' }) supplementaryContext!: string | null;
  @ApiProperty({ type: 'integer', example: 3, description: 'The number of the newest version.' }) currentVersion!: number;
  @ApiProperty({ type: 'integer', example: 3 }) versionsCount!: number;
  @ApiProperty({ type: 'integer', example: 1250, description: 'Every session recorded for the page.' }) sessionsCount!: number;
}

export class PageVersionResponse {
  @ApiProperty({ example: 'pagever_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageVersionId!: string;
  @ApiProperty({ type: 'integer', example: 2, description: 'From 1, one more for each version of the page.' }) number!: number;
  @ApiProperty({ type: String, nullable: true, example: 'pagetemplate_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageTemplateId!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Visitors come from the spring newsletter.' }) supplementaryContext!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class PageVersionListResponse extends ListResponseOf(PageVersionResponse) {}

export class SessionsInBucket {
  @ApiProperty({ format: 'date-time', example: '2026-11-24T00:00:00.000Z', description: 'The bucket’s start (UTC); it lasts one interval.' }) start!: string;
  @ApiProperty({ type: 'integer', example: 42 }) sessions!: number;
}

export class UtmValueCount {
  @ApiProperty({ example: 'spring-sale' }) value!: string;
  @ApiProperty({ type: 'integer', example: 17 }) sessions!: number;
}

const top = (example: string) =>
  ApiProperty({ type: [UtmValueCount], maxItems: PAGE_STATS_TOP_VALUES, example: [{ value: example, sessions: 17 }] });

export class TopUtmValues {
  @top('spring-sale') utm_campaigns!: UtmValueCount[];
  @top('ad-a') utm_contents!: UtmValueCount[];
  @top('email') utm_mediums!: UtmValueCount[];
  @top('newsletter') utm_sources!: UtmValueCount[];
  @top('landing pages') utm_terms!: UtmValueCount[];
}

export class PageStatsResponse {
  @ApiProperty({ example: 'pagevar_01jdq8x0m2f3e4r5t6y7u8i9o0' }) pageId!: string;
  @ApiProperty({ enum: STATS_INTERVALS }) interval!: string;
  @ApiProperty({ format: 'date-time', example: '2026-10-26T00:00:00.000Z', description: 'Start of the first bucket (inclusive).' }) from!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-25T00:00:00.000Z', description: 'End of the last bucket (exclusive).' }) to!: string;
  @ApiProperty({ type: 'integer', example: 1250, description: 'Sessions in the range: the sum of the series.' }) total!: number;
  @ApiProperty({ type: [SessionsInBucket], description: 'Every bucket of the range in order, zero included.' }) series!: SessionsInBucket[];
  @ApiProperty({ type: TopUtmValues, description: `Per UTM kind, the ${PAGE_STATS_TOP_VALUES} values with the most sessions in the range, most first (ties in code point order).` }) utm!: TopUtmValues;
  @ApiProperty({
    type: [String],
    enum: ['utm_campaigns', 'utm_contents', 'utm_mediums', 'utm_sources', 'utm_terms'],
    example: [],
    description:
      `The keys of \`utm\` whose list may lack a value. Values come from visitors' links, so a page can have any number: each kind's top values are chosen among ` +
      `its ${UTM_TOP_CANDIDATES.toLocaleString('en-US')} values with the most sessions overall. A list is exact, and its kind not named here, when the kind has no more values ` +
      'than that, or when its last value has more sessions in the range than any value left out has overall. Every count listed is exact either way.',
  })
  utmApproximate!: string[];
}

// Tied to the views the controllers send (openapi/same-shape.ts).
export type PageShape = Holds<SameShape<PageResponse, PageView>>;
export type PageVersionShape = Holds<SameShape<PageVersionResponse, PageVersionView>>;
export type PageStatsShape = Holds<SameShape<PageStatsResponse, PageStatsView>>;
