// Tests run through @swc/jest (fast, no type check: `npm run typecheck` does that) on Node 24,
// which `npm test` brings from node_modules/.bin. See ../shared/toolchain.md.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2023',
        },
        // Dynamic import() stays native, so tests can load ESM-only packages (jest runs with VM modules).
        module: { type: 'commonjs', ignoreDynamic: true },
        sourceMaps: 'inline',
      },
    ],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/env.ts'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 30000,
  maxWorkers: 2,
  // A worker that has run many files holds about a gigabyte (V8 grows its heap lazily with 24 GB
  // on the machine), and its exit, the kernel freeing that memory, took longer than the half
  // second jest waits: "a worker process has failed to exit gracefully" at the end of a run with
  // nothing left open. Workers past this much after a file are started afresh instead.
  workerIdleMemoryLimit: '350MB',
  // The end of a run still met the half second now and then on a busy machine (a clean-clone run
  // of 2026-11-26, with --detectOpenHandles over the whole suite finding nothing open): a worker
  // that exits on its own is given two seconds. One held open by a leak never exits, so it is
  // still force-exited and still reported.
  workerGracefulExitTimeout: 2000,
};
