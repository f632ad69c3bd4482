// TypeID (jetify spec): `<prefix>_<26 chars of Crockford base32 (lower case) of a UUIDv7>`.
// Written here rather than imported so the domain depends on nothing outside itself; the spec's
// own test vectors are checked in test/unit/domain/shared/type-id.test.ts.

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const DECODE: Record<string, number> = Object.fromEntries([...ALPHABET].map((c, i) => [c, i]));
const ALPHABET_CODES = [...ALPHABET].map((c) => c.charCodeAt(0));
const SUFFIX_CODES: number[] = new Array<number>(26).fill(0);
const PREFIX_PATTERN = /^([a-z]([a-z_]{0,61}[a-z])?)?$/;
const SUFFIX_PATTERN = /^[0-7][0-9abcdefghjkmnpqrstvwxyz]{25}$/;

export const ID_PREFIXES = {
  tenant: 'tenant',
  apiKey: 'apikey',
  brand: 'brand',
  pageGroup: 'page',
  page: 'pagevar',
  pageVersion: 'pagever',
  template: 'pagetemplate',
  webhookSubscription: 'whsub',
  event: 'evt',
  delivery: 'whdlv',
  deliveryAttempt: 'whatt',
  request: 'req',
  session: 'pagesession',
  portalSession: 'portal',
} as const;
export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

// Both directions work on 5-bit groups with plain numbers (at most 13 bits held at a time):
// BigInt arithmetic allocated at every step and showed in the API's profile of every write.

/** Encodes 16 bytes as the 26-character suffix (130 bits, the top two always zero). */
export function encodeSuffix(bytes: Uint8Array, from = 0): string {
  // Character codes gathered in one reused array and made a string once: 26 concatenations made
  // a chain of 26 strings per id, a share of the worker's garbage (two ids per delivery).
  let held = 0;
  // The two zero bits that pad 128 bits to 130 come first.
  let bits = 2;
  let at = 0;
  for (let i = from; i < from + 16; i++) {
    held = (held << 8) | bytes[i];
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      SUFFIX_CODES[at++] = ALPHABET_CODES[(held >> bits) & 31];
    }
    held &= (1 << bits) - 1;
  }
  return String.fromCharCode.apply(null, SUFFIX_CODES);
}

/** Decodes a 26-character suffix; null when it is not a valid one. */
export function decodeSuffix(suffix: string): Uint8Array | null {
  if (!SUFFIX_PATTERN.test(suffix)) return null;
  const bytes = new Uint8Array(16);
  let held = 0;
  // The first character carries the two padding bits (zero: the pattern allows 0-7 only).
  let bits = -2;
  let at = 0;
  for (let i = 0; i < 26; i++) {
    held = (held << 5) | DECODE[suffix[i]];
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (held >> bits) & 0xff;
      held &= (1 << bits) - 1;
    }
  }
  return bytes;
}

/** Splits a TypeID into prefix and suffix; null when it is malformed. */
export function parseTypeId(value: string): { prefix: string; suffix: string } | null {
  if (typeof value !== 'string' || value.length > 90) return null;
  const at = value.lastIndexOf('_');
  const prefix = at === -1 ? '' : value.slice(0, at);
  const suffix = at === -1 ? value : value.slice(at + 1);
  if (at === 0) return null;
  if (!PREFIX_PATTERN.test(prefix) || !SUFFIX_PATTERN.test(suffix)) return null;
  return { prefix, suffix };
}

/** True when `value` is a well-formed TypeID with exactly this prefix. */
export function isTypeId(value: unknown, prefix: IdPrefix): value is string {
  if (typeof value !== 'string') return false;
  const parsed = parseTypeId(value);
  return parsed !== null && parsed.prefix === prefix;
}

export function uuidToSuffix(uuid: string): string {
  const hex = uuid.replace(/-/g, '');
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return encodeSuffix(bytes);
}

export function suffixToUuid(suffix: string): string | null {
  const bytes = decodeSuffix(suffix);
  if (!bytes) return null;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// UUIDv7 with a monotonic 12-bit counter in rand_a (RFC 9562, method 1), so ids made by one
// process in the same millisecond still sort in creation order: lists sort on ids.
let lastMs = 0;
let counter = 0;

// Random bytes drawn 4 KB at a time: one call to the system's generator per 256 ids instead of
// one per id (it showed in the API's CPU profile of page creation, three ids per request). An id
// is made in place in the pool (uuidV7At), so that making one allocates nothing but its string.
const RANDOM_POOL = new Uint8Array(4096);
let randomOffset = RANDOM_POOL.length;

/** A UUIDv7 written over the next 16 random bytes of the pool; returns where it starts. */
function uuidV7At(nowMs: number): number {
  if (randomOffset === RANDOM_POOL.length) {
    globalThis.crypto.getRandomValues(RANDOM_POOL);
    randomOffset = 0;
  }
  const at = randomOffset;
  randomOffset += 16;
  const bytes = RANDOM_POOL;
  let ms = nowMs;
  if (ms <= lastMs) {
    counter++;
    if (counter > 0xfff) {
      lastMs++;
      counter = bytes[at + 7] & 0x7f;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    // Start low in the counter space so that many ids fit in the same millisecond.
    counter = ((bytes[at + 6] & 0x01) << 8) | bytes[at + 7];
  }
  writeMillis(bytes, ms, at);
  bytes[at + 6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[at + 7] = counter & 0xff;
  bytes[at + 8] = 0x80 | (bytes[at + 8] & 0x3f);
  return at;
}

export function newTypeId(prefix: IdPrefix, nowMs?: number): string {
  return `${prefix}_${encodeSuffix(RANDOM_POOL, uuidV7At(nowMs ?? Date.now()))}`;
}

/**
 * The smallest TypeID with this prefix whose UUIDv7 time is at or after `ms`: every id made at
 * `ms` or later sorts at or above it (the suffix's first ten characters are the time), so a
 * range of ids stands in for a range of creation times.
 */
export function typeIdLowerBound(prefix: IdPrefix, ms: number): string {
  const bytes = new Uint8Array(16);
  writeMillis(bytes, Math.max(0, Math.min(Math.floor(ms), 2 ** 48 - 1)));
  return `${prefix}_${encodeSuffix(bytes)}`;
}

/** The time (ms) a TypeID of `prefix` was made at, as its UUIDv7 says; null when `value` is not one. The inverse of typeIdLowerBound. */
export function typeIdTime(prefix: IdPrefix, value: string): number | null {
  const parsed = parseTypeId(value);
  const bytes = parsed && parsed.prefix === prefix ? decodeSuffix(parsed.suffix) : null;
  if (!bytes) return null;
  let ms = 0;
  for (let i = 0; i < 6; i++) ms = ms * 256 + bytes[i];
  return ms;
}

/** A UUIDv7's 48-bit time, big-endian, into bytes 0-5 (exact: below 2^53, and `& 0xff` keeps the low bits). */
function writeMillis(bytes: Uint8Array, ms: number, at = 0): void {
  for (let i = 0; i < 6; i++) bytes[at + i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
}
