import { loadConfig } from '../../infrastructure/config/app-config';
import { ConfigError } from '../../infrastructure/config/config-error';
import { createLogger } from '../../infrastructure/logging/logger';
import { CLI_COMMANDS } from '../../interfaces/cli/commands';
import { progressBar } from '../../interfaces/cli/progress-bar';
import { runCli } from '../../interfaces/cli/run-cli';
import { openCliSession } from './cli-session';

/**
 * The platform CLI (platform-cli.md): one command, its exit code. Logs go to stderr so that
 * stdout holds only the command's output (one JSON object with --json).
 */
export async function runCliProcess(argv: string[]): Promise<number> {
  const io = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };
  let config;
  try {
    config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, 'cli', 2);
  return runCli(
    argv,
    CLI_COMMANDS,
    // `migrate` always migrates; every other command follows MIGRATE_ON_START.
    (command) =>
      openCliSession(config, logger, progressBar((text) => process.stderr.write(text), process.stderr.isTTY === true), {
        migrate: command.name === 'migrate' || config.migrateOnStart,
      }),
    io,
  );
}
