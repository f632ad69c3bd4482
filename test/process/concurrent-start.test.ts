import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS } from '../../src/infrastructure/persistence/migrations';
import { ServiceProcess } from '../support/service-process';
import { TcpProxy } from '../support/tcp-proxy';
import { ISOLATED_PREFIX, testDatabaseUrl, withAdmin } from '../support/test-database-url';
import { workerEnv } from '../support/webhook-worker';

/** dist/cli.js as its own process, awaited without blocking the test's event loop. */
function spawnCli(argv: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const root = join(__dirname, '..', '..');
  const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), ...argv], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const migrationLog = (line: any) => line.msg === 'applied migrations' || line.msg === 'migrations up to date';

/** The first log line that matches, or a failure naming what the process said if it exits first. */
function logOrExit(process: ServiceProcess, match: (line: any) => boolean): Promise<any> {
  const exited = process.exited.then((code) => {
    throw new Error(`exited with ${code} before logging it: ${process.stderr.join(' | ')}`);
  });
  return Promise.race([process.waitFor(match), exited]);
}

// Issue 16: three processes start at the same moment on an empty database; the migration lock
// makes them take turns, so all come up and every migration is applied exactly once. Node starts
// each process at its own pace, so a proxy holds their first connections at a start line and
// lets them reach PostgreSQL together.
describe('processes starting together on an empty database', () => {
  it('all come up, and each migration is applied once', async () => {
    const name = `${ISOLATED_PREFIX}${randomBytes(6).toString('hex')}`;
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    await withAdmin(databaseUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
    const proxy = new TcpProxy(url.hostname, Number(url.port || 5432));
    await proxy.start();
    proxy.hold();
    const proxied = new URL(databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const env = workerEnv(proxied.toString(), { LOG_LEVEL: 'info' });
    const api = new ServiceProcess({ ...env, SERVICE_ROLE: 'api' });
    const worker = new ServiceProcess({ ...env, SERVICE_ROLE: 'worker' });
    const cli = spawnCli(['migrate', '--json'], env);
    const pg = new Client({ connectionString: databaseUrl });
    try {
      await proxy.heldAtLeast(3);
      proxy.release();
      const [apiLog, workerLog, cliRun] = await Promise.all([logOrExit(api, migrationLog), logOrExit(worker, migrationLog), cli]);
      expect(cliRun.code).toBe(0);
      const cliLog = cliRun.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find(migrationLog);
      const cliApplied: string[] = JSON.parse(cliRun.stdout.trim().split('\n').pop()!).applied;
      expect(cliLog.applied).toEqual(cliApplied);

      // Whoever took the lock first applied everything; the other two found nothing left.
      const runs = [apiLog, workerLog, cliLog];
      const applied = runs.flatMap((run) => run.applied as string[]);
      expect(applied).toEqual(MIGRATIONS.map((m) => m.name));
      expect(runs.filter((run) => run.applied.length > 0)).toHaveLength(1);

      const base = await api.baseUrl();
      expect((await fetch(`${base}/health/ready`)).status).toBe(200);
      await logOrExit(worker, (line) => line.msg === 'webhook worker started');

      await pg.connect();
      const { rows } = await pg.query('SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name ORDER BY name');
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ name: m.name, n: 1 })));

      const waits = runs.map((run) => run.lockWaitMs as number).sort((a, b) => a - b);
      process.stdout.write(`concurrent start: lock waits ${waits.join(' / ')} ms (api ${apiLog.lockWaitMs}, worker ${workerLog.lockWaitMs}, cli ${cliLog.lockWaitMs})\n`);
    } finally {
      await Promise.all([api.stop(), worker.stop()]);
      await pg.end().catch(() => undefined);
      await proxy.stop();
      await withAdmin(databaseUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }, 60_000);
});
