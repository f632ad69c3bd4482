import { DomainError, NotFoundError } from '../../domain/shared/domain-error';
import { checkOptions, parseArgs, UsageError } from './cli-args';
import { CliCommand, CliSession } from './cli-context';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Runs one command line; returns the exit code (platform-cli.md): 0 done, 2 bad input (usage,
 * validation, unknown id: `not found: <id>`), 1 any other failure. With --json, stdout gets
 * exactly one JSON object on one line.
 */
export async function runCli(
  argv: string[],
  commands: CliCommand[],
  open: (command: CliCommand) => Promise<CliSession>,
  io: CliIo,
): Promise<number> {
  let parsed;
  let command: CliCommand | undefined;
  try {
    parsed = parseArgs(argv);
    if (parsed.command === 'help') {
      io.out(helpText(commands));
      return 0;
    }
    command = commands.find((candidate) => candidate.name === parsed!.command);
    if (!command) throw new UsageError(`unknown command: ${parsed.command} (try: help)`);
    checkOptions(parsed.options, command.required, command.optional);
  } catch (error) {
    io.err(`error: ${(error as Error).message}`);
    return 2;
  }

  let session: CliSession | undefined;
  try {
    session = await open(command);
    const result = await session.within(() => command!.run(session!.context, parsed.options));
    io.out(parsed.json ? JSON.stringify(result) : command.text(result));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}`);
      return 2;
    }
    if (error instanceof NotFoundError) {
      io.err(`not found: ${error.id}`);
      return 2;
    }
    if (error instanceof DomainError) {
      io.err(`error: ${error.message}`);
      return 2;
    }
    io.err(`failed: ${(error as Error).message?.split('\n')[0] ?? String(error)}`);
    return 1;
  } finally {
    await session?.close();
  }
}

function helpText(commands: CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.usage.length));
  return [
    'usage: npm run -s cli -- <command> [options] [--json]',
    '',
    ...commands.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`),
  ].join('\n');
}
