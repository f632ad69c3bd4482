import { parseDuration, parseRetrySchedule } from '../../domain/webhook/retry-texts';

// The parsers of plain values every area's configuration shares: each returns undefined for a
// value it refuses, which the reader turns into a problem naming the variable.

export function oneOf<T extends string>(values: readonly T[]) {
  return (raw: string): T | undefined => (values.includes(raw as T) ? (raw as T) : undefined);
}

export function integerIn(min: number, max: number) {
  return (raw: string): number | undefined => {
    if (!/^\d+$/.test(raw)) return undefined;
    const n = Number(raw);
    return n >= min && n <= max ? n : undefined;
  };
}

export function boolean(raw: string): boolean | undefined {
  return raw === 'true' ? true : raw === 'false' ? false : undefined;
}

export function hostName(raw: string): string | undefined {
  return /^[\w.:-]+$/.test(raw) ? raw : undefined;
}

export function urlWith(protocols: string[]) {
  return (raw: string): string | undefined => {
    try {
      return protocols.includes(new URL(raw).protocol) ? raw : undefined;
    } catch {
      return undefined;
    }
  };
}

export function key32(raw: string): Buffer | undefined {
  const key = Buffer.from(raw, 'base64');
  return key.length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(raw) ? key : undefined;
}

export function durationIn(min: number, max: number): (raw: string) => number | undefined {
  return (raw) => {
    const ms = parseDuration(raw);
    return ms !== null && ms >= min && ms <= max ? ms : undefined;
  };
}

export function retrySchedule(raw: string): number[] | undefined {
  try {
    return parseRetrySchedule(raw);
  } catch {
    return undefined;
  }
}
