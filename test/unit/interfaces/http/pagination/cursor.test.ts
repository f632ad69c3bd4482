import { createHmac } from 'node:crypto';
import { CursorKey, decodeCursor, encodeCursor } from '../../../../../src/interfaces/http/pagination/cursor';
import { ApiError } from '../../../../../src/interfaces/http/errors/api-error';

const ID = 'brand_01jdq8w9k1a2b3c4d5e6f7g8h9';

function rejection(list: string, cursor: string, key: CursorKey = 'brand'): unknown {
  try {
    decodeCursor(list, cursor, key);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('cursor', () => {
  it('round-trips the last id and is opaque base64url', () => {
    const cursor = encodeCursor('brands', ID);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(ID);
    expect(decodeCursor('brands', cursor, 'brand')).toBe(ID);
  });

  it.each([
    ['a changed character', (c: string) => c.slice(0, 10) + (c[10] === 'A' ? 'B' : 'A') + c.slice(11)],
    ['a cut end', (c: string) => c.slice(0, -3)],
    ['an appended character', (c: string) => `${c}A`],
    ['a forged id with the old tag', (c: string) => Buffer.from(Buffer.from(c, 'base64url').toString().replace(ID, ID.slice(0, -1) + 'z')).toString('base64url')],
    ['characters outside base64url', () => 'abc$%^'],
    ['an empty value', () => ''],
    ['a huge value', () => 'A'.repeat(5000)],
  ])('is a 400 on `cursor` after %s', (_, tamper) => {
    const error = rejection('brands', tamper(encodeCursor('brands', ID)));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).details).toMatchObject({ field: 'cursor' });
  });

  it('still reads a v1 cursor (HMAC tag), issued before v2, and refuses an edited one', () => {
    // A cursor as v1 made it: base64url of `v1.brands.<id>.<HMAC-SHA256 tag, 22 characters>`.
    const body = `v1.brands.${ID}`;
    const tag = createHmac('sha256', 'landing-customer-api/cursor/v1').update(body).digest('base64url').slice(0, 22);
    const v1 = Buffer.from(`${body}.${tag}`).toString('base64url');
    expect(decodeCursor('brands', v1, 'brand')).toBe(ID);
    const edited = Buffer.from(`v1.brands.${ID.slice(0, -1)}z.${tag}`).toString('base64url');
    expect((rejection('brands', edited) as ApiError).details).toMatchObject({ field: 'cursor' });
    // A v1 body under a v2 tag is no cursor either.
    const mixed = Buffer.from(`v2.brands.${ID}.${tag}`).toString('base64url');
    expect((rejection('brands', mixed) as ApiError).details).toMatchObject({ field: 'cursor' });
  });

  it('belongs to the list that issued it', () => {
    const error = rejection('page_groups:draft', encodeCursor('brands', ID));
    expect((error as ApiError).details).toMatchObject({ field: 'cursor' });
  });

  // The tag's key is public: a client can tag any last id. Each must still be a 400, never a value
  // that PostgreSQL refuses (a 500).
  it.each([
    ['a NUL byte', 'brand_01jdq8w9k1a2b3c4d5e6f7g8\u0000'],
    ['another list’s prefix', 'page_01jdq8w9k1a2b3c4d5e6f7g8h9'],
    ['no prefix', '01jdq8w9k1a2b3c4d5e6f7g8h9'],
    ['a suffix out of range', 'brand_81jdq8w9k1a2b3c4d5e6f7g8h9'],
    ['400 characters', `brand_${'0'.repeat(394)}`],
    ['a lone surrogate', 'brand_\ud800'],
    ['an empty id', ''],
  ])('is a 400 on `cursor` for a well-tagged cursor whose last id has %s', (_, lastId) => {
    expect((rejection('brands', encodeCursor('brands', lastId)) as ApiError).details).toMatchObject({ field: 'cursor' });
  });

  it.each([['2147483648'], ['1e21'], ['-1'], ['0'], ['1.5'], ['01'], [' 1'], ['NaN'], ['9'.repeat(400)]].map(([id]) => [id.slice(0, 12), id]))('is a 400 for a counted list whose last id is %j', (_, lastId) => {
    const error = rejection('page_versions:x', encodeCursor('page_versions:x', lastId), 'number');
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).details).toMatchObject({ field: 'cursor' });
  });

  it('reads row numbers up to PostgreSQL’s integer', () => {
    expect(decodeCursor('page_versions:x', encodeCursor('page_versions:x', '2147483647'), 'number')).toBe('2147483647');
    expect(decodeCursor('page_versions:x', encodeCursor('page_versions:x', '1'), 'number')).toBe('1');
  });
});
