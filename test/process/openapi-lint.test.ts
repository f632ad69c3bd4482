import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

// Issue 17: the document is checked by a linter nobody here wrote (Redocly CLI, its recommended
// rules, redocly.yaml), on the committed openapi/openapi.json, which the drift test proves is the
// document the code generates. Telemetry and update checks are off: nothing leaves the machine.
describe('OpenAPI lint (Redocly, recommended rules)', () => {
  it('finds no error in openapi/openapi.json', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'lint', 'openapi/openapi.json', '--format=json'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const report = JSON.parse(run.stdout);
    const problems = report.problems.map((p: { ruleId: string; severity: string; message: string }) => `${p.severity} ${p.ruleId}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.status).toBe(0);
  });
});
