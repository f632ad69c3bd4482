import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreatePageVersion } from '../../../application/page/create-page-version.use-case';
import { GetPage } from '../../../application/page/get-page.use-case';
import { GetPageStats } from '../../../application/page/get-page-stats.use-case';
import { ListPageVersions } from '../../../application/page/list-page-versions.use-case';
import { PageStatsView, PageVersionView } from '../../../application/page/page.view';
import { ApiErrors } from '../errors/error-responses.decorator';
import { Tagged, TaggedAnswer } from '../conditional/tagged-answer.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { TenantId } from '../guards/tenant.decorator';
import { ListEnvelope, toEnvelope } from '../pagination/list-envelope';
import { ListQueryDto } from '../pagination/list-query.dto';
import { toListRequest } from '../pagination/list-request';
import { CreatePageVersionDto } from './create-page-version.dto';
import { PageResponse, PageStatsResponse, PageVersionListResponse, PageVersionResponse } from './page.response';
import { PageStatsQueryDto } from './page-stats.query';
import { CreateUnder, FetchOne } from '../routes/resource-route.decorators';

/** One page of a page group: its detail, its versions and its statistics. */
@ApiTags('Pages')
@Controller('v0/page_groups/:page_group_id/pages/:page_id')
export class PagesController {
  constructor(
    private readonly getPage: GetPage,
    private readonly listVersions: ListPageVersions,
    private readonly createVersion: CreatePageVersion,
    private readonly getStats: GetPageStats,
  ) {}

  @FetchOne(undefined, 'pages:read', { summary: 'Fetch a page', description: 'The list item’s fields, the current version’s content, and counts of versions and sessions.' }, PageResponse)
  async get(@TenantId() tenantId: string, @Param('page_group_id') pageGroupId: string, @Param('page_id') pageId: string, @Tagged() answer: TaggedAnswer): Promise<string | undefined> {
    return answer(await this.getPage.execute({ tenantId, pageGroupId, pageId }));
  }

  @Get('versions')
  @RequiresScope('pages:read')
  @ApiOperation({ summary: 'List the versions of a page', description: 'Newest (highest number) first.' })
  @ApiOkResponse({ type: PageVersionListResponse })
  @ApiErrors(400, 404)
  async versions(
    @TenantId() tenantId: string,
    @Param('page_group_id') pageGroupId: string,
    @Param('page_id') pageId: string,
    @Query() query: ListQueryDto,
  ): Promise<ListEnvelope<PageVersionView>> {
    const list = `page_versions:${pageId}`;
    return toEnvelope(list, await this.listVersions.execute({ tenantId, pageGroupId, pageId, ...toListRequest(list, 'number', query) }));
  }

  @CreateUnder('versions', 'pages:write', {
    summary: 'Create a version of a page',
    description:
      'The next number, with the given content; absent fields carry over from the current version, null clears them. ' +
      'The page takes the new content. Emits `page.version.created` in the same transaction. The body may be omitted.',
  }, CreatePageVersionDto, PageVersionResponse)
  async create(
    @TenantId() tenantId: string,
    @Param('page_group_id') pageGroupId: string,
    @Param('page_id') pageId: string,
    @Body() body: CreatePageVersionDto,
  ): Promise<PageVersionView> {
    return this.createVersion.execute({ tenantId, pageGroupId, pageId, pageTemplateId: body.pageTemplateId, supplementaryContext: body.supplementaryContext });
  }

  @Get('stats')
  @RequiresScope('pages:read')
  @ApiOperation({
    summary: 'Statistics of a page',
    description:
      'Sessions per UTC day or hour over a range of whole buckets, their total, and the 10 values of each UTM kind with the most sessions. ' +
      'At most 90 days by day and 7 days by hour; by default the last 30 days by day (the current day included). ' +
      'A bad range is a 400 naming `from`, `to` or `interval`.',
  })
  @ApiOkResponse({ type: PageStatsResponse })
  @ApiErrors(400, 404)
  stats(
    @TenantId() tenantId: string,
    @Param('page_group_id') pageGroupId: string,
    @Param('page_id') pageId: string,
    @Query() query: PageStatsQueryDto,
  ): Promise<PageStatsView> {
    return this.getStats.execute({
      tenantId,
      pageGroupId,
      pageId,
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
      interval: query.interval,
    });
  }
}
