import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { openCliSession } from '../../src/composition/cli/cli-session';
import { loadConfig } from '../../src/infrastructure/config/app-config';
import { CLI_COMMANDS } from '../../src/interfaces/cli/commands';
import { runCli } from '../../src/interfaces/cli/run-cli';
import { testLogger } from './silent-logger';
import { testDatabaseUrl } from './test-database-url';

export interface CliResult {
  code: number;
  /** Progress reports, as `stage done/total`. */
  progress: string[];
  stdout: string[];
  stderr: string[];
  /** The last stdout line parsed, for --json runs. */
  json: any;
}

/** Runs a CLI command in process, wired exactly as dist/cli.js wires it, on the test database. */
export async function cli(...argv: string[]): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const progress: string[] = [];
  const config = loadConfig({ DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'silent', SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY });
  const code = await runCli(argv, CLI_COMMANDS, () => openCliSession(config, testLogger(), (stage, done, total) => progress.push(`${stage} ${done}/${total}`)), {
    out: (line) => stdout.push(...line.split('\n')),
    err: (line) => stderr.push(line),
  });
  let json: unknown;
  try {
    json = JSON.parse(stdout[stdout.length - 1] ?? '');
  } catch {
    json = undefined;
  }
  return { code, progress, stdout, stderr, json };
}

/** Runs the built CLI (dist/cli.js) as its own process, on Node 24 from node_modules/.bin. */
export function builtCli(argv: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const root = join(__dirname, '..', '..');
  const result = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), ...argv], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
