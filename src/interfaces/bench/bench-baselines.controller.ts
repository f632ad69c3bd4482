import { Controller, Get, Header, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { TenantId } from '../http/guards/tenant.decorator';
import { RAW_BRANDS_SQL, rawBrandList } from './raw-brand-list';
import { RAW_BRAND_WRITE_SQL, rawBrandWrite } from './raw-brand-write';

export const BENCH_POOL = Symbol('BENCH_POOL');


/**
 * Baselines for `npm run bench`, mounted only with BENCH_BASELINES=true: the same global
 * middleware, guard (key lookup and rate limit) and filter as every /v0 route, with (a) a constant
 * answer, (b) the raw query a brand list needs and (b-w) the raw write a brand's creation needs.
 * They measure what the framework costs.
 */
@ApiExcludeController()
@Controller('bench')
export class BenchBaselinesController {
  constructor(@Inject(BENCH_POOL) private readonly pool: Pool) {}

  @Get('constant')
  constant(): { items: never[]; hasMore: false } {
    return { items: [], hasMore: false };
  }

  @Get('raw-brands')
  @Header('Content-Type', 'application/json; charset=utf-8')
  async rawBrands(@TenantId() tenantId: string): Promise<string> {
    // On a plain node-postgres pool: baseline (b).
    const { rows } = await this.pool.query<{ id: string; view_json: string }>(RAW_BRANDS_SQL, [tenantId]);
    return rawBrandList(rows);
  }

  @Post('raw-brand-write')
  @HttpCode(201)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async rawBrandWrite(@TenantId() tenantId: string): Promise<string> {
    // Baseline (b-w): the brand's row and its outbox row in one statement, on the plain pool.
    const write = rawBrandWrite(tenantId, new Date());
    await this.pool.query(RAW_BRAND_WRITE_SQL, write.values);
    return write.answer;
  }
}
