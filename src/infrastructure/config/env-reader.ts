import { describeNodes } from '../redis/cluster-nodes';
import { boolean, integerIn } from './value-parsers';

export type Env = Record<string, string | undefined>;

/** Reads one variable: its fallback when unset or empty, else the parsed value or a problem naming it. */
export type ReadVariable = <T>(name: string, fallback: T, parse: (raw: string) => T | undefined, expected: string) => T;

/**
 * A reader that collects every bad variable instead of stopping at the first, so that one start
 * names them all (README, Configuration).
 */
export interface EnvReader {
  read: ReadVariable;
  /** An integer variable within [min, max]; the fallback may be null or undefined for "not set". */
  integer: <F extends number | null | undefined>(name: string, fallback: F, min: number, max: number) => number | F;
  /** A true/false variable. */
  flag: (name: string, fallback: boolean) => boolean;
  problems: string[];
}

export function envReader(env: Env): EnvReader {
  const problems: string[] = [];
  const read: ReadVariable = (name, fallback, parse, expected) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = parse(raw.trim());
    if (value === undefined) problems.push(`${name} must be ${expected} (got "${redact(name, raw)}")`);
    return value ?? fallback;
  };
  const integer = <F extends number | null | undefined>(name: string, fallback: F, min: number, max: number) =>
    read<number | F>(name, fallback, integerIn(min, max), `an integer from ${min} to ${max}`);
  const flag = (name: string, fallback: boolean) => read(name, fallback, boolean, 'true or false');
  return { read, integer, flag, problems };
}

/** Connection strings may hold passwords: an error message shows only their scheme. */
function redact(name: string, raw: string): string {
  if (name.endsWith('_KEY')) return '…';
  if (name === 'REDIS_CLUSTER_NODES') return describeNodes(raw);
  return name.endsWith('_URL') ? `${raw.split(':')[0]}:…` : raw.slice(0, 40);
}
