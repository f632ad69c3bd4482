import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { TenantId } from '../http/guards/tenant.decorator';
import { RAW_BRANDS_SQL, rawBrandList } from './raw-brand-list';

export const BENCH_POOL = Symbol('BENCH_POOL');


/**
 * Baselines for `npm run bench`, mounted only with BENCH_BASELINES=true: the same global
 * middleware, guard (key lookup and rate limit) and filter as every /v0 route, with (a) a constant
 * answer and (b) the raw query a brand list needs. They measure what the framework costs.
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
}
