import { createHmac } from 'node:crypto';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const options = () => import(join(ROOT, 'bench', 'soak', 'options.mjs'));
const receiver = () => import(join(ROOT, 'bench', 'soak', 'receiver.mjs'));

describe('soak options and verdict', () => {
  it('defaults to the recorded size: 20,000 pages at 64, three subscriptions, 2% failed first answers, no chaos', async () => {
    const { parseSoakOptions } = await options();
    expect(parseSoakOptions([])).toMatchObject({ pages: 20000, concurrency: 64, subscriptions: 3, failShare: 0.02, chaos: false, timeoutSeconds: 900, json: false });
    expect(parseSoakOptions(['--pages', '500', '--chaos', '--seed', '7'])).toMatchObject({ pages: 500, chaos: true, seed: 7 });
  });

  it('refuses unknown options and bad numbers, naming them', async () => {
    const { parseSoakOptions } = await options();
    expect(() => parseSoakOptions(['--duration', '5'])).toThrow('unknown option --duration');
    expect(() => parseSoakOptions(['--pages', '0'])).toThrow('--pages must be a whole number of at least 1');
    expect(() => parseSoakOptions(['--fail-share', '1'])).toThrow('--fail-share must be a number from 0 to below 1');
  });

  it("names what a process that exited died of, not Node's version line", async () => {
    const { lastWords } = await options();
    const crash = `node:events:486\n      throw er; // Unhandled 'error' event\n      ^\n\nError: Connection terminated unexpectedly\n    at Client._handleErrorEvent (client.js:422:10)\nEmitted 'error' event on Client instance at:\n    at Client._handleErrorEvent (client.js:422:10)\n\nNode.js v24.21.0\n`;
    expect(lastWords(crash)).toBe('Error: Connection terminated unexpectedly');
    expect(lastWords('{"level":"error"}\nfailed to start: connect ECONNREFUSED 127.0.0.1:36643\n')).toBe('failed to start: connect ECONNREFUSED 127.0.0.1:36643');
    expect(lastWords('')).toBe('');
  });

  it('fails a run that lost, badly signed, invented a page or timed out; duplicates alone do not fail it', async () => {
    const { verdict } = await options();
    const clean = { lost: 0, badSignatures: 0, phantoms: 0, timedOut: false, duplicatesAfter2xx: 3 };
    expect(verdict(clean)).toEqual({ ok: true, problems: [] });
    expect(verdict({ ...clean, lost: 2, badSignatures: 1 }).problems).toEqual(['2 deliveries lost', '1 bad signatures']);
    expect(verdict({ ...clean, phantoms: 1 }).ok).toBe(false);
    expect(verdict({ ...clean, timedOut: true }).ok).toBe(false);
  });

  it('makes the same choices from the same seed, and takes nearest-rank percentiles', async () => {
    const { seededRandom, percentile } = await options();
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 99)).toBe(5);
    expect(percentile([], 50)).toBeNull();
  });
});

describe('soak receiver signatures', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const raw = Buffer.from('{"id":"evt_1"}');
  const signed = (body: Buffer) => ({
    'x-webhook-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    'webhook-id': 'evt_1',
    'webhook-timestamp': '1700000000',
    'webhook-signature': `v1,${createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`evt_1.1700000000.${body}`).digest('base64')}`,
  });

  it('holds both signatures to the body, and refuses either one wrong or missing', async () => {
    const { signaturesHold } = await receiver();
    expect(signaturesHold(secret, raw, signed(raw))).toBe(true);
    expect(signaturesHold(secret, Buffer.from('{"id":"evt_2"}'), signed(raw))).toBe(false);
    expect(signaturesHold(secret, raw, { ...signed(raw), 'webhook-signature': 'v1,AAAA' })).toBe(false);
    expect(signaturesHold(secret, raw, { ...signed(raw), 'x-webhook-signature-256': undefined })).toBe(false);
    // During a rotation several signatures come; one valid is enough.
    expect(signaturesHold(secret, raw, { ...signed(raw), 'webhook-signature': `v1,AAAA ${signed(raw)['webhook-signature']}` })).toBe(true);
  });
});

describe('soak records in docs/performance.md', () => {
  const report = () => import(join(ROOT, 'bench', 'lib', 'report.mjs'));
  const run = {
    date: '2026-11-26', pages: 20000, concurrency: 64, subscriptions: 3, failShare: 0.02, created: 20000, expected: 60000, delivered: 60000, lost: 0,
    duplicatesAfter2xx: 5, badSignatures: 0, creationMs: { p50: 200, p99: 900 }, creationSeconds: 90, allDeliveredSeconds: 120,
    peakRssMb: { api: 200, worker: 210, driverAndReceiver: 270 }, faults: [{ kind: 'database cut' }, { kind: 'redis restart' }, { kind: 'database cut' }],
  };

  it('counts the faults by kind, and shows one row per recorded mode', async () => {
    const { faultCounts, soakSection } = await report();
    expect(faultCounts([])).toBe('none');
    expect(faultCounts(run.faults)).toBe('2 × database cut, 1 × redis restart');
    expect(soakSection(null)).toBe('');
    const section = soakSection({ chaos: run });
    expect(section).toContain('## Soak');
    expect(section).toContain('| chaos | 2026-11-26 | 20000 | 60000/60000 | 0 | 5 | 0 | 200 / 900 | 90 | 120 | 200 / 210 / 270 | 2 × database cut, 1 × redis restart |');
    expect(section).not.toContain('| plain |');
  });
});
