import 'reflect-metadata';
import { runCliProcess } from './composition/cli/cli-process';

// `npm run cli -- <command>`: the platform CLI (src/composition/cli/cli-process.ts).
runCliProcess(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
