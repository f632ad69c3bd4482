// The soak's recorded runs: bench/results/soak.json holds the last run of each mode (plain, chaos)
// at the recorded size, and docs/performance.md shows them (bench/lib/report.mjs, soakSection).
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { markdown } from '../lib/report.mjs';
import { recordedHistory } from '../lib/history-record.mjs';

const file = (root) => join(root, 'bench', 'results', 'soak.json');

export function recordedSoak(root) {
  try {
    return JSON.parse(readFileSync(file(root), 'utf8'));
  } catch {
    return null;
  }
}

/** Only a run of the size the issue asked for is recorded: smaller ones are smoke tests. */
export function isRecordedSize(options) {
  return options.pages === 20000 && options.concurrency === 64 && options.subscriptions === 3 && options.failShare === 0.02;
}

/** Keeps `summary` as the run of its mode and rewrites docs/performance.md with it. */
export function recordSoak(root, summary) {
  const soak = recordedSoak(root) ?? {};
  soak[summary.chaos ? 'chaos' : 'plain'] = {
    date: new Date().toISOString().slice(0, 10),
    machine: { cpus: cpus().length, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.versions.node },
    ...summary,
  };
  writeFileSync(file(root), `${JSON.stringify(soak, null, 2)}\n`);
  const latest = JSON.parse(readFileSync(join(root, 'bench', 'results', 'latest.json'), 'utf8'));
  // The whole page, as bench/run.mjs writes it: the history's section too.
  writeFileSync(join(root, 'docs', 'performance.md'), markdown(latest, soak, recordedHistory(root)));
}
