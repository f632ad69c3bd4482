import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const load = () => import(join(ROOT, 'bench', 'lib', 'report.mjs'));
const recorded = () => JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'latest.json'), 'utf8'));
const recordedSoak = () => JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'soak.json'), 'utf8'));
const recordedHistory = async () => (await import(join(ROOT, 'bench', 'lib', 'history-record.mjs'))).recordedHistory(ROOT);

describe('bench report', () => {
  it('renders the committed results (the bench’s and the soak’s) into the committed docs/performance.md and chart', async () => {
    const { markdown, chart } = await load();
    const result = recorded();
    expect(markdown(result, recordedSoak(), await recordedHistory())).toBe(readFileSync(join(ROOT, 'docs', 'performance.md'), 'utf8'));
    expect(chart(result.latencyCurve)).toBe(readFileSync(join(ROOT, 'docs', 'performance-latency.svg'), 'utf8'));
  });

  it('says which host changes a run made, and none when it made none', async () => {
    const { markdown, placement } = await load();
    const result = recorded();
    const plain = { ...result.machine, hostChanges: { pin: false, autovacuum: false } };
    expect(placement(plain)).toBe('no process pinned to a core (run without --pin)');
    expect(markdown({ ...result, machine: plain })).toContain('Measured by `npm run bench` on this machine');
    const both = { ...result.machine, hostChanges: { pin: true, autovacuum: true } };
    expect(placement(both)).toMatch(/^the API pinned to core 0.*; autovacuum switched on for the run/);
    expect(markdown({ ...result, machine: both })).toContain('Measured by `npm run bench -- --pin --autovacuum` on this machine');
  });

  it('prints one line per scenario, the webhook figures and where the results went', async () => {
    const { table } = await load();
    const result = recorded();
    const lines = table(result, true).split('\n');
    expect(lines[0]).toMatch(/^scenario\s+req\/s\s+p50\s+p99\s+errors\s+\/\(a\)\s+\/\(b\)(\s+\/\(b-w\))?(\s+\/\(c\))?$/);
    for (const s of result.scenarios) expect(lines.some((l: string) => l.startsWith(s.name) && l.includes(` ${s.rps} `))).toBe(true);
    expect(table(result, true)).toContain(`webhooks: ${result.webhooks.deliveriesPerSecond} deliveries/s by one worker`);
    expect(table(result, true)).toContain('results: bench/results/latest.json');
    expect(table({ ...result, webhooks: {} }, false)).toMatch(/webhooks: not measured[\s\S]*partial run, not recorded/);
  });

  it('shows the ratio to the floor (c) when the run measured it, and not before', async () => {
    const { table, markdown } = await load();
    // Without the raw write's column (runs before it had none), so that (c) follows (b).
    const full = recorded();
    const result = { ...full, scenarios: full.scenarios.map(({ ratioToRawWrite, ratioToRawWriteEachRound, ...s }: { ratioToRawWrite?: number; ratioToRawWriteEachRound?: number[] }) => s) };
    const withFloor = { ...result, scenarios: result.scenarios.map((s: { rps: number }) => ({ ...s, ratioToFloor: Math.round((s.rps / 8000) * 100) / 100 })) };
    const withoutFloor = { ...result, scenarios: result.scenarios.map(({ ratioToFloor, ...s }: { ratioToFloor?: number }) => s) };
    expect(table(withFloor, true).split('\n')[0]).toMatch(/\/\(b\)\s+\/\(c\)$/);
    expect(markdown(withFloor)).toContain('| ÷ (a) | ÷ (b) | ÷ (c) |');
    expect(markdown(withFloor)).toContain('(c) a bare `node:http` server');
    expect(table(withoutFloor, true).split('\n')[0]).toMatch(/\/\(b\)$/);
    expect(markdown(withoutFloor)).not.toContain('÷ (c)');
  });

  it('says how ÷ (b) was taken: beside each endpoint when the run paired them, as a ratio of medians before', async () => {
    const { markdown } = await load();
    const result = recorded();
    const paired = { ...result, scenarios: result.scenarios.map((s: { ratioToRawPg: number }) => ({ ...s, ratioToRawPgEachRound: [s.ratioToRawPg] })) };
    const unpaired = { ...result, scenarios: result.scenarios.map(({ ratioToRawPgEachRound, ...s }: { ratioToRawPgEachRound?: number[] }) => s) };
    expect(markdown(paired)).toContain('(b) measured right before and right after it');
    expect(markdown(unpaired)).not.toContain('right before and right after');
  });
});
