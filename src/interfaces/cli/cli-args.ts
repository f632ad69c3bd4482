/** A command line that cannot be run as given: exit 2 with this message. */
export class UsageError extends Error {}

export interface ParsedArgs {
  command: string;
  options: Record<string, string>;
  json: boolean;
}

/** `<command> [--key value]... [--json]`; a repeated or valueless option is a usage error. */
export function parseArgs(argv: string[]): ParsedArgs {
  const [command, ...rest] = argv;
  if (!command || command.startsWith('-')) throw new UsageError('a command is required (try: help)');
  const options: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--json') {
      json = true;
      continue;
    }
    if (!arg.startsWith('--') || arg.length < 3) throw new UsageError(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    const key = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new UsageError(`option --${key} needs a value`);
    if (key in options) throw new UsageError(`option --${key} is given twice`);
    options[key] = value;
  }
  return { command, options, json };
}

/** Checks the options against a command's spec: required ones present, no unknown ones. */
export function checkOptions(options: Record<string, string>, required: string[], optional: string[] = []): void {
  for (const key of Object.keys(options)) {
    if (!required.includes(key) && !optional.includes(key)) throw new UsageError(`unknown option --${key}`);
  }
  for (const key of required) {
    if (options[key] === undefined || options[key] === '') throw new UsageError(`option --${key} is required`);
  }
}
