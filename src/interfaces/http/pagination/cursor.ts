import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { IdPrefix, isTypeId } from '../../../domain/shared/type-id';
import { ApiError } from '../errors/api-error';

// An opaque cursor (decisions.md, Lists): base64url of `v2.<list>.<last id>.<tag>`. The tag
// makes an edited cursor a clear 400 rather than a silently different page; its key is not a
// secret (a forged cursor can only point inside the caller's own tenant, which every query
// enforces), it only makes edits detectable. `<list>` binds a cursor to the list (and filter)
// that issued it. v2 tags with one SHA-256 of key and body instead of v1's HMAC (a fifth of its
// cost: every list answer with more pages makes one; with a public key HMAC guarded nothing
// more). v1 cursors, issued before, are still read.
const KEY = 'landing-customer-api/cursor/v1';
const VERSION = 'v2';

export function encodeCursor(list: string, lastId: string): string {
  const body = `${VERSION}.${list}.${lastId}`;
  return Buffer.from(`${body}.${tag(body)}`, 'utf8').toString('base64url');
}

/**
 * What a list's cursor points after: an id with the list's own TypeID prefix, or (`number`) a row
 * number such as a page version's, a positive PostgreSQL `integer`.
 */
export type CursorKey = IdPrefix | 'number' | 'position';

const MAX_NUMBER = 2 ** 31 - 1;

/**
 * The last id the cursor points after; throws a 400 on `cursor` when it was not ours for this
 * list. The tag's key is public, so a client can forge a well-tagged cursor around any text: the
 * last id is checked against the list's key too, and no query ever sees a value PostgreSQL would
 * refuse (a NUL byte, an integer out of range), which would be a 500.
 */
export function decodeCursor(list: string, cursor: string, key: CursorKey): string {
  const lastId = taggedLastId(list, cursor);
  if (!fitsKey(lastId, key)) throw invalidCursor();
  return lastId;
}

function fitsKey(lastId: string, key: CursorKey): boolean {
  // A feed position (bigint): 0 is "before the first event".
  if (key === 'position') return /^(0|[1-9][0-9]{0,15})$/.test(lastId) && Number(lastId) <= Number.MAX_SAFE_INTEGER;
  if (key !== 'number') return isTypeId(lastId, key);
  return /^[1-9][0-9]{0,9}$/.test(lastId) && Number(lastId) <= MAX_NUMBER;
}

function invalidCursor(): ApiError {
  return ApiError.validation('cursor', 'is not a valid cursor for this list');
}

/** The last id of a cursor whose tag and list are ours, whatever its shape. */
function taggedLastId(list: string, cursor: string): string {
  const invalid = invalidCursor();
  if (cursor.length === 0 || cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const cut = text.lastIndexOf('.');
  if (cut < 0) throw invalid;
  const body = text.slice(0, cut);
  const given = Buffer.from(text.slice(cut + 1), 'utf8');
  const version = body.startsWith('v1.') ? 'v1' : VERSION;
  const expected = Buffer.from(version === 'v1' ? tagV1(body) : tag(body), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid;
  const prefix = `${version}.${list}.`;
  if (!body.startsWith(prefix)) throw invalid;
  return body.slice(prefix.length);
}

function tag(body: string): string {
  return hash('sha256', `${KEY}.${body}`, 'base64url').slice(0, 22);
}

function tagV1(body: string): string {
  return createHmac('sha256', KEY).update(body).digest('base64url').slice(0, 22);
}
