import { Body, Controller, Header, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateBrand } from '../../../application/brand/create-brand.use-case';
import { GetBrand } from '../../../application/brand/get-brand.use-case';
import { ListBrands } from '../../../application/brand/list-brands.use-case';
import { UpdateBrand } from '../../../application/brand/update-brand.use-case';
import { jsonOf } from '../../../application/shared/json-text';
import { ConditionalWrite } from '../conditional/conditional.decorators';
import { IfMatch } from '../conditional/if-match.decorator';
import { Tagged, TaggedAnswer } from '../conditional/tagged-answer.decorator';
import type { Precondition } from '../../../application/shared/precondition';
import { ApiErrors } from '../errors/error-responses.decorator';
import { RequiresScope } from '../guards/required-scope.decorator';
import { TenantId } from '../guards/tenant.decorator';
import { toEnvelopeJson } from '../pagination/list-envelope';
import { ListQueryDto } from '../pagination/list-query.dto';
import { toListRequest } from '../pagination/list-request';
import { BrandListResponse, BrandResponse } from './brand.response';
import { CreateBrandDto } from './create-brand.dto';
import { UpdateBrandDto } from './update-brand.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { FetchOne, ListMany } from '../routes/resource-route.decorators';

@ApiTags('Brands')
@Controller('v0/brands')
export class BrandsController {
  constructor(
    private readonly listBrands: ListBrands,
    private readonly getBrand: GetBrand,
    private readonly createBrand: CreateBrand,
    private readonly updateBrand: UpdateBrand,
  ) {}

  @ListMany('brands:read', { summary: 'List brands', description: 'Newest first, keyset-paginated.' }, BrandListResponse, { storedJson: true })
  async list(@TenantId() tenantId: string, @Query() query: ListQueryDto): Promise<string> {
    // Each brand's JSON is stored with its row by every writer (view_json, decisions.md 77): sent as it is.
    const page = await this.listBrands.execute({ tenantId, ...toListRequest('brands', 'brand', query) });
    return toEnvelopeJson('brands', page);
  }

  @Post()
  @RequiresScope('brands:write')
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({ summary: 'Create a brand' })
  @ApiBody({ type: CreateBrandDto })
  @ApiCreatedResponse({ type: BrandResponse })
  @ApiErrors(400, 413, 415)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async create(@TenantId() tenantId: string, @Body() body: CreateBrandDto): Promise<string> {
    const brand = await this.createBrand.execute({
      tenantId,
      name: body.name,
      preferredAppearance: body.preferredAppearance,
      themeLight: body.themeLight,
      themeDark: body.themeDark,
      companyHomePage: body.companyHomePage ?? undefined,
    });
    // The text the write stored beside the row and published: serialised once (jsonOf).
    return jsonOf(brand);
  }

  @FetchOne(':brand_id', 'brands:read', { summary: 'Fetch a brand' }, BrandResponse)
  async get(@TenantId() tenantId: string, @Param('brand_id') brandId: string, @Tagged() answer: TaggedAnswer): Promise<string | undefined> {
    return answer((await this.getBrand.execute({ tenantId, brandId })).text);
  }

  @Patch(':brand_id')
  @RequiresScope('brands:write')
  @ConditionalWrite()
  @ApiOperation({
    summary: 'Update a brand',
    description: 'JSON merge patch (RFC 7396): absent fields keep their value, null clears a nullable one, themes merge field by field.',
  })
  @ApiConsumes('application/json', 'application/merge-patch+json')
  @ApiBody({ type: UpdateBrandDto })
  @ApiOkResponse({ type: BrandResponse })
  @ApiErrors(400, 404, 413, 415)
  async update(
    @TenantId() tenantId: string,
    @Param('brand_id') brandId: string,
    @Body() body: UpdateBrandDto,
    @IfMatch() precondition: Precondition<object> | undefined,
    @Tagged() answer: TaggedAnswer,
  ): Promise<string | undefined> {
    return answer(jsonOf(await this.updateBrand.execute({ tenantId, brandId, changes: body, precondition })));
  }
}
