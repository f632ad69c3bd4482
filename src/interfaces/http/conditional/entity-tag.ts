import { hash } from 'node:crypto';
import { ApiError } from '../errors/api-error';

/**
 * A strong entity tag of a JSON representation: a digest of its exact bytes (decisions.md 140).
 * Two answers with one tag are byte for byte the same, so If-Match may compare them strongly, as
 * RFC 9110 asks of it. 128 bits of SHA-256, base64url: short, and no collision in practice.
 * One-shot `hash`: for a 1 KB answer it costs 40 % less than a Hash object (2.1 against 3.4 µs).
 */
export function entityTagOf(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 22)}"`;
}

/**
 * What of a resource an If-Match is about, when that is not the whole answer: a subscription's
 * configuration (what a PATCH changes), not its health, which every delivery moves
 * (decisions.md 177). Its tag is then two digests of 66 bits each, the part's then the whole's, in
 * the same 22 characters: If-None-Match compares the whole tag (a 304 only when nothing changed),
 * If-Match only the part's half.
 */
export type TagPart = (answer: unknown) => unknown;
const PART_LENGTH = 11;

/** The tag of an answer given as JSON text: of the whole, or, with `part`, of that part and the whole. */
export function taggedAs(json: string, answer: unknown, part?: TagPart): string {
  const whole = entityTagOf(json);
  if (!part) return whole;
  const partTag = entityTagOf(JSON.stringify(part(typeof answer === 'string' ? JSON.parse(answer) : answer)));
  return `"${partTag.slice(1, 1 + PART_LENGTH)}${whole.slice(1, 1 + PART_LENGTH)}"`;
}

/** If-Match against a tag made with a part: strong comparison of the part's digest. */
export function partMatchHolds(condition: TagCondition, current: string): boolean {
  if (condition === '*') return true;
  const partOf = (tag: string) => tag.slice(1, 1 + PART_LENGTH);
  return condition.some((entry) => !entry.weak && partOf(entry.tag) === partOf(current));
}

/** `*`, or the tags of an If-Match or If-None-Match header (RFC 9110 §8.8.3); a malformed one is a 400. */
export type TagCondition = '*' | { tag: string; weak: boolean }[];

const ENTITY_TAG = /^\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*$/;

export function parseTagCondition(header: string | string[] | undefined, field: 'If-Match' | 'If-None-Match'): TagCondition | null {
  if (header === undefined) return null;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return '*';
  const tags = splitTags(text).map((part) => {
    const match = ENTITY_TAG.exec(part);
    if (!match) throw ApiError.validation(field, 'must be * or a list of entity tags such as "abc" or W/"abc"');
    return { tag: match[2], weak: match[1] !== undefined };
  });
  if (tags.length === 0 || tags.length > 50) throw ApiError.validation(field, 'must name 1 to 50 entity tags');
  return tags;
}

/** Commas inside a quoted tag do not split it. */
function splitTags(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      if (current.trim()) parts.push(current);
      current = '';
    } else current += char;
  }
  if (current.trim() || parts.length === 0) parts.push(current);
  return parts;
}

/** If-None-Match: weak comparison (a W/ tag matches its strong twin). */
export function noneMatchHolds(condition: TagCondition, current: string): boolean {
  if (condition === '*') return false;
  return !condition.some((entry) => entry.tag === current);
}

/** If-Match: strong comparison (a W/ tag never matches). */
export function matchHolds(condition: TagCondition, current: string): boolean {
  if (condition === '*') return true;
  return condition.some((entry) => !entry.weak && entry.tag === current);
}
