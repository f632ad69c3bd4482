// `npm run soak` options. Pure: the argument list in, the run's settings out.
//   --pages N          page creations (default 20,000)
//   --concurrency C    creations in flight at once (default 64)
//   --subscriptions K  subscriptions of the tenant, each to its own path of the receiver (default 3)
//   --fail-share F     share of first answers for an (event, subscription) that are a 500 (default 0.02)
//   --chaos            cut the database (TCP proxy), restart Redis and kill -9 the worker at random
//                      moments, each at least once, while pages are created
//   --timeout S        the whole run's bound in seconds (default 900); past it the run fails
//   --seed N           the random choices' seed (printed; default a random one)
//   --json             print the summary as one JSON line instead of text

import { readFlags } from '../lib/flags.mjs';

const KNOWN = new Set(['pages', 'concurrency', 'subscriptions', 'fail-share', 'chaos', 'timeout', 'seed', 'json']);
const WITH_VALUE = new Set(['pages', 'concurrency', 'subscriptions', 'fail-share', 'timeout', 'seed']);

export class SoakOptionsError extends Error {}

export function parseSoakOptions(argv, env = {}) {
  const given = readFlags(argv, { known: KNOWN, withValue: WITH_VALUE, optionsFile: 'bench/soak/options.mjs', fail: (message) => new SoakOptionsError(message) });
  const whole = (name, fallback, min) => {
    const value = Number(given.get(name) ?? fallback);
    if (!Number.isInteger(value) || value < min) throw new SoakOptionsError(`--${name} must be a whole number of at least ${min}`);
    return value;
  };
  const failShare = Number(given.get('fail-share') ?? 0.02);
  if (!(failShare >= 0 && failShare < 1)) throw new SoakOptionsError('--fail-share must be a number from 0 to below 1');
  return {
    pages: whole('pages', 20000, 1),
    concurrency: whole('concurrency', 64, 1),
    subscriptions: whole('subscriptions', 3, 1),
    failShare,
    chaos: given.has('chaos'),
    timeoutSeconds: whole('timeout', 900, 10),
    seed: whole('seed', Math.floor(Math.random() * 2 ** 31), 0),
    json: given.has('json'),
    // The server a fresh database is made on (and dropped from at the end).
    serverUrl: env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

/** A small seeded generator (mulberry32): the same seed makes the same choices. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percentile `p` (0–100) of numbers, nearest rank; null for none. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * What the run proved: nothing lost, nothing badly signed. Duplicates after a 2xx are allowed
 * (delivery is at least once: a worker killed between the receiver's answer and the record sends
 * again) but counted and printed.
 */
export function verdict(summary) {
  const problems = [];
  if (summary.lost > 0) problems.push(`${summary.lost} deliveries lost`);
  if (summary.badSignatures > 0) problems.push(`${summary.badSignatures} bad signatures`);
  if (summary.phantoms !== 0) problems.push(`${summary.phantoms} pages in the database that no 201 reported`);
  if (summary.timedOut) problems.push('timed out before every delivery arrived');
  return { ok: problems.length === 0, problems };
}

/**
 * What a process that exited said last, for the summary: the message of the error it died of
 * when it died of one (Node ends such a death with its stack and then its own version, which
 * named nothing), else its last line.
 */
export function lastWords(stderr) {
  const lines = stderr.split('\n').map((line) => line.trimEnd()).filter((line) => line.trim() !== '' && !/^Node\.js v\d/.test(line));
  const error = lines.findLast((line) => /^(\w+:\s|\w*Error\b)/.test(line) && !line.startsWith('    at '));
  return error ?? lines.at(-1) ?? '';
}
