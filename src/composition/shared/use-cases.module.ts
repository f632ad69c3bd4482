import { Global, Module } from '@nestjs/common';
import { USE_CASES } from './use-cases';

/** The application layer as Nest providers; the layer itself knows nothing of modules. */
@Global()
@Module({ providers: USE_CASES, exports: USE_CASES })
export class UseCasesModule {}
