import { DynamicModule, Module } from '@nestjs/common';
import type { InfrastructureDeps } from '../shared/infrastructure.module';
import { BENCH_POOL } from '../../interfaces/bench/bench-baselines.controller';
import { benchPool } from '../../interfaces/bench/bench-pool';
import { BenchModule } from './bench.module';
import { AppModule } from './app.module';

/**
 * The API plus the benchmark's baseline routes (BENCH_BASELINES=true, set by `npm run bench`
 * only), behind the same middleware, guards and filter, so that the baselines and the endpoints
 * are measured in one process. Never part of the production AppModule.
 */
@Module({})
export class BenchAppModule {
  static forRoot(deps: InfrastructureDeps): DynamicModule {
    const pool = { provide: BENCH_POOL, useFactory: () => benchPool(deps.orm.config.get('clientUrl'), deps.config.databasePoolMax) };
    return { module: BenchAppModule, imports: [AppModule.forRoot(deps), { module: BenchModule, providers: [pool], exports: [] }] };
  }
}
