/** What commands get from the composition root: use cases by class, and what opening migrated. */
export interface CliContext {
  get<T>(type: abstract new (...args: never[]) => T): T;
  /** Migrations applied when the CLI opened the database (every command migrates first). */
  appliedMigrations: string[];
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  required: string[];
  optional?: string[];
  run(context: CliContext, options: Record<string, string>): Promise<object>;
  /** Human-readable lines for the result (without --json). */
  text(result: object): string;
}
