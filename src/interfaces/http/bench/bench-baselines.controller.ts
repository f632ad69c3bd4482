import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { TenantId } from '../guards/tenant.decorator';

export const BENCH_POOL = Symbol('BENCH_POOL');

// The list query of GET /v0/brands, in raw SQL on a plain node-postgres pool: baseline (b). Each
// row's response JSON is kept by PostgreSQL (Migration...060000), so the raw answer is their text.
const BRANDS_SQL = `SELECT id, view_json FROM brands WHERE tenant_id = $1 ORDER BY id DESC LIMIT 21`;

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
    const { rows } = await this.pool.query<{ id: string; view_json: string }>(BRANDS_SQL, [tenantId]);
    return `{"items":[${rows.slice(0, 20).map((row) => row.view_json).join(',')}],"hasMore":${rows.length > 20}}`;
  }
}
