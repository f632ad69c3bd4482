// Tracing first: it patches `pg` and `ioredis` as they load when spans are exported.
import './composition/register-tracing';
import 'reflect-metadata';
import { runService } from './composition/service';

// `npm start`: the service process (src/composition/service.ts).
runService().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
