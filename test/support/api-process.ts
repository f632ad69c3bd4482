import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { testDatabaseUrl } from './test-database-url';

/** The built API (dist/main.js) as its own process, with its JSON log lines readable as they come. */
export class ApiProcess {
  readonly lines: any[] = [];
  readonly stderr: string[] = [];
  private waiters: { match: (line: any) => boolean; resolve: (line: any) => void }[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  /** `nodeFlags`: e.g. the production memory settings of `npm start` (package.json). */
  constructor(env: Record<string, string> = {}, nodeFlags: string[] = []) {
    const root = join(__dirname, '..', '..');
    this.child = spawn(process.execPath, [...nodeFlags, join(root, 'dist', 'main.js')], {
      cwd: root,
      // A Redis command given 5 s, not 250 ms: on a busy machine a stalled event loop lets the
      // timer fire first, and a limiter that fails open by design would break a test's budget.
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SERVICE_ROLE: 'api', METRICS_PORT: '0', RATE_LIMIT_STORE_TIMEOUT_MS: '5000', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    createInterface({ input: this.child.stdout! }).on('line', (text) => {
      let line: any;
      try {
        line = JSON.parse(text);
      } catch {
        line = { text };
      }
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => (w.match(line) ? (w.resolve(line), false) : true));
    });
    createInterface({ input: this.child.stderr! }).on('line', (text) => this.stderr.push(text));
    this.exited = new Promise((done) => this.child.once('exit', (code) => done(code)));
  }

  /** Resolves with the first log line (past or future) that matches. */
  waitFor(match: (line: any) => boolean): Promise<any> {
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The API base URL, once the process says it listens. */
  async baseUrl(): Promise<string> {
    const line = await this.waitFor((l) => typeof l.api === 'string');
    return line.api.replace(/\/v0$/, '');
  }

  get pid(): number {
    return this.child.pid!;
  }

  signal(name: NodeJS.Signals): void {
    this.child.kill(name);
  }

  /** SIGTERM, then SIGKILL if the process has not exited after `graceMs`; resolves when it has. */
  async stop(graceMs = 15_000): Promise<number | null> {
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
