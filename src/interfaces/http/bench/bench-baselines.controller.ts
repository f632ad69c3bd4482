import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Pool } from 'pg';
import { TenantId } from '../guards/tenant.decorator';

export const BENCH_POOL = Symbol('BENCH_POOL');

// The list query of GET /v0/brands, in raw SQL on a plain node-postgres pool: baseline (b).
const BRANDS_SQL = `SELECT id AS "brandId", name, preferred_appearance AS "preferredAppearance", tenant_id AS "tenantId",
  theme_light AS "themeLight", theme_dark AS "themeDark", company_home_page AS "companyHomePage",
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"
  FROM brands WHERE tenant_id = $1 ORDER BY id DESC LIMIT 21`;

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
  async rawBrands(@TenantId() tenantId: string): Promise<{ items: unknown[]; hasMore: boolean }> {
    const { rows } = await this.pool.query(BRANDS_SQL, [tenantId]);
    return { items: rows.slice(0, 20), hasMore: rows.length > 20 };
  }
}
