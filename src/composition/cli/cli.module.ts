import { DynamicModule, Module } from '@nestjs/common';
import { InfrastructureDeps, InfrastructureModule } from '../shared/infrastructure.module';
import { UseCasesModule } from '../shared/use-cases.module';

/** The CLI process: the same adapters and use cases as the API, with no HTTP. */
@Module({})
export class CliModule {
  static forRoot(deps: InfrastructureDeps): DynamicModule {
    return { module: CliModule, imports: [InfrastructureModule.forRoot(deps), UseCasesModule] };
  }
}
