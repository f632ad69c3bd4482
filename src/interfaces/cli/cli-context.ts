/** What commands get from the composition root: use cases by class, and what opening migrated. */
export interface CliContext {
  get<T>(type: abstract new (...args: never[]) => T): T;
  /** Migrations applied when the CLI opened the database (every command migrates first). */
  appliedMigrations: string[];
  /** Shows how far long work has come (on stderr: stdout is for the result). */
  progress(stage: string, done: number, total: number): void;
}

/** An open connection to the system for one command line. */
export interface CliSession {
  context: CliContext;
  /** Runs the command in its own unit-of-work context. */
  within<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
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
