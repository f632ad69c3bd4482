import { DynamicModule, Module } from '@nestjs/common';
import { InfrastructureDeps, InfrastructureModule } from '../shared/infrastructure.module';
import { HttpModule } from './http.module';
import { UseCasesModule } from '../shared/use-cases.module';

/** The API process: adapters, use cases and the HTTP driving adapter. */
@Module({})
export class AppModule {
  static forRoot(deps: InfrastructureDeps): DynamicModule {
    return { module: AppModule, imports: [InfrastructureModule.forRoot(deps), UseCasesModule, HttpModule] };
  }
}
