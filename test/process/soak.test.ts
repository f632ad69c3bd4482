import { spawn } from 'node:child_process';
import { join } from 'node:path';

// Issue 32: a small run of `npm run soak --chaos` in every test run: 500 pages, three
// subscriptions, 2% of first answers failed, and a database cut, a Redis restart and a worker
// kill -9 while the pages are created. The soak itself says what it proved (bench/soak.mjs);
// this test holds it to nothing lost and nothing badly signed.
const ROOT = join(__dirname, '..', '..');

function soak(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'soak.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run soak', () => {
  it('loses nothing and signs everything right through a database cut, a Redis restart and a worker kill -9', async () => {
    const run = await soak(['--pages', '500', '--concurrency', '32', '--chaos', '--json', '--timeout', '150']);
    if (run.code !== 0) throw new Error(`soak exited ${run.code}:\n${run.stderr}\n${run.stdout}`);
    const summary = JSON.parse(run.stdout);
    process.stdout.write(
      `soak: ${summary.created} pages, ${summary.delivered}/${summary.expected} delivered, ${summary.duplicatesAfter2xx} duplicates after a 2xx, ` +
        `faults ${summary.faults.map((f: { kind: string }) => f.kind).join(', ')}, all delivered after ${summary.allDeliveredSeconds} s, ` +
        `restarted ${summary.unexpectedExits.length}\n`,
    );
    expect(summary).toMatchObject({ created: 500, phantoms: 0, expected: 1500, delivered: 1500, lost: 0, badSignatures: 0, timedOut: false });
    // A process started while the database was cut exits and is started again (as a supervisor
    // would); anything else that ends a process is a defect.
    for (const exit of summary.unexpectedExits) expect(`${exit.role}: ${exit.said}`).toMatch(/^\w+: failed to start: /);
    expect(new Set(summary.faults.map((f: { kind: string }) => f.kind))).toEqual(new Set(['database cut', 'redis restart', 'worker kill -9']));
  }, 180_000);
});
