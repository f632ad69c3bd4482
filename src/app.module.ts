import { DynamicModule, Module } from '@nestjs/common';
import { Pool } from 'pg';
import { BENCH_POOL } from './interfaces/http/bench/bench-baselines.controller';
import { BenchModule } from './interfaces/http/bench/bench.module';
import { InfrastructureDeps, InfrastructureModule } from './infrastructure/infrastructure.module';
import { HttpModule } from './interfaces/http/http.module';
import { UseCasesModule } from './use-cases.module';

/** The API process: adapters, use cases and the HTTP driving adapter. */
@Module({})
export class AppModule {
  static forRoot(deps: InfrastructureDeps): DynamicModule {
    const imports = [InfrastructureModule.forRoot(deps), UseCasesModule, HttpModule];
    if (!deps.config.benchBaselines) return { module: AppModule, imports };
    // Benchmark baselines only (BENCH_BASELINES=true): never mounted in a normal process.
    const pool = { provide: BENCH_POOL, useFactory: () => new Pool({ connectionString: deps.orm.config.get('clientUrl'), max: deps.config.databasePoolMax }) };
    return { module: AppModule, imports: [...imports, { module: BenchModule, providers: [pool], exports: [] }] };
  }
}
