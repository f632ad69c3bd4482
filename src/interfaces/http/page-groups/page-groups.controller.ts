import { Body, Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreatePage } from '../../../application/page/create-page.use-case';
import { GetUtmParameters } from '../../../application/page/get-utm-parameters.use-case';
import { ListPages } from '../../../application/page/list-pages.use-case';
import { PageCreatedView, PageListItemView } from '../../../application/page/page.view';
import { GetPageGroup } from '../../../application/page-group/get-page-group.use-case';
import { ListPageGroups } from '../../../application/page-group/list-page-groups.use-case';
import { ApiErrors } from '../errors/error-responses.decorator';
import { Tagged, TaggedAnswer } from '../conditional/tagged-answer.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { TenantId } from '../guards/tenant.decorator';
import { ListEnvelope, toEnvelope, toEnvelopeJson } from '../pagination/list-envelope';
import { ListQueryDto } from '../pagination/list-query.dto';
import { toListRequest } from '../pagination/list-request';
import { CreatePageDto } from './create-page.dto';
import { ListPageGroupsQueryDto } from './list-page-groups.query';
import { PageCreatedResponse, PageGroupListResponse, PageGroupResponse, PageListResponse, UtmParametersResponse } from './page-group.response';
import { CreateUnder, FetchOne, ListMany } from '../routes/resource-route.decorators';

@ApiTags('Page groups')
@Controller('v0/page_groups')
export class PageGroupsController {
  constructor(
    private readonly listPageGroups: ListPageGroups,
    private readonly listPages: ListPages,
    private readonly createPage: CreatePage,
    private readonly getUtmParameters: GetUtmParameters,
    private readonly getPageGroup: GetPageGroup,
  ) {}

  @ListMany('page_groups:read', { summary: 'List page groups', description: 'Newest first; soft-deleted groups are not listed. Echoes the page size in `limit`.' }, PageGroupListResponse, { storedJson: true })
  async list(@TenantId() tenantId: string, @Query() query: ListPageGroupsQueryDto): Promise<string> {
    // The cursor is bound to the filter: a cursor of the `draft` list is refused by the others.
    const list = `page_groups:${query.status ?? '*'}`;
    const request = toListRequest(list, 'page', query);
    const page = await this.listPageGroups.execute({ tenantId, status: query.status, ...request });
    // Each group's JSON is stored with the group (stored-views.ts): sent as it is.
    return toEnvelopeJson(list, page, { limit: request.limit });
  }

  @FetchOne(':page_group_id', 'page_groups:read', { summary: 'Fetch a page group', description: 'Exactly the list item; a soft-deleted group is not found, as in the list.' }, PageGroupResponse)
  async get(@TenantId() tenantId: string, @Param('page_group_id') pageGroupId: string, @Tagged() answer: TaggedAnswer): Promise<string | undefined> {
    return answer((await this.getPageGroup.execute({ tenantId, pageGroupId })).text);
  }

  @Get(':page_group_id/pages')
  @RequiresScope('page_groups:read')
  @ApiOperation({ summary: 'List the pages of a page group', description: 'Newest first.' })
  @ApiOkResponse({ type: PageListResponse })
  @ApiErrors(400, 404)
  async pages(@TenantId() tenantId: string, @Param('page_group_id') pageGroupId: string, @Query() query: ListQueryDto): Promise<ListEnvelope<PageListItemView>> {
    const list = `pages:${pageGroupId}`;
    const page = await this.listPages.execute({ tenantId, pageGroupId, ...toListRequest(list, 'pagevar', query) });
    return toEnvelope(list, page);
  }

  @CreateUnder(':page_group_id/pages', 'pages:write', {
    summary: 'Create a page in a page group',
    description: 'Creates the page and its version 1 in one transaction and emits `page.version.created`. The body may be omitted.',
  }, CreatePageDto, PageCreatedResponse)
  create(@TenantId() tenantId: string, @Param('page_group_id') pageGroupId: string, @Body() body: CreatePageDto): Promise<PageCreatedView> {
    return this.createPage.execute({
      tenantId,
      pageGroupId,
      pageTemplateId: body.pageTemplateId ?? undefined,
      supplementaryContext: body.supplementaryContext ?? undefined,
    });
  }

  @Get(':page_group_id/utm_parameters')
  @RequiresScope('page_groups:read')
  @ApiOperation({
    summary: 'Available UTM parameters of a page group',
    description:
      'The distinct values seen in the group’s recorded sessions, each array sorted by code point. Each array holds at most 1,000 values: ' +
      'the most recently seen (to within an hour) when the group has more. Values are 1 to 500 characters.',
  })
  @ApiOkResponse({ type: UtmParametersResponse })
  @ApiErrors(404)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async utm(@TenantId() tenantId: string, @Param('page_group_id') pageGroupId: string): Promise<string> {
    // Already JSON (kept by PostgreSQL): sent as it is, not parsed and serialised again.
    return (await this.getUtmParameters.execute({ tenantId, pageGroupId })).text;
  }
}
