import { DynamicModule, Module } from '@nestjs/common';
import { InfrastructureDeps, InfrastructureModule } from '../../infrastructure/infrastructure.module';
import { HttpModule } from '../../interfaces/http/http.module';
import { UseCasesModule } from '../shared/use-cases.module';

/** The API process: adapters, use cases and the HTTP driving adapter. */
@Module({})
export class AppModule {
  static forRoot(deps: InfrastructureDeps): DynamicModule {
    return { module: AppModule, imports: [InfrastructureModule.forRoot(deps), UseCasesModule, HttpModule] };
  }
}
