import { DynamicModule, Module } from '@nestjs/common';
import { DeliveryQueue } from '../../application/webhook/delivery/delivery-queue.port';
import { InfrastructureDeps, InfrastructureModule } from '../shared/infrastructure.module';
import { WebhookWorkerModule } from './webhook-worker-infrastructure.module';
import { RecordSession } from '../../infrastructure/persistence/connection/record-session';
import { UseCasesModule } from '../shared/use-cases.module';

/** The webhook worker: the shared adapters and use cases, plus the delivery machinery. */
@Module({})
export class WorkerModule {
  static forRoot(deps: InfrastructureDeps & { databaseUrl: string; queue: DeliveryQueue; records: RecordSession }): DynamicModule {
    return {
      module: WorkerModule,
      imports: [InfrastructureModule.forRoot(deps), UseCasesModule, WebhookWorkerModule.forRoot(deps)],
    };
  }
}
