import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { hmacSha256 } from '../../../../src/infrastructure/crypto/hmac-sha256';
import { RedisSeal } from '../../../../src/infrastructure/crypto/redis-seal';

describe('HMAC-SHA256 over precomputed pads', () => {
  it("is node:crypto's HMAC, for keys shorter, as long as and longer than a block, and any message", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 3000 }), (key, message) => {
        const expected = createHmac('sha256', Buffer.from(key)).update(message).digest('hex');
        expect(hmacSha256(Buffer.from(key))(message).toString('hex')).toBe(expected);
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });

  it('matches the RFC 4231 test case 2', () => {
    expect(hmacSha256(Buffer.from('Jefe'))('what do ya want for nothing?').toString('hex')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('keeps the seals made before it: a seal is the truncated HMAC of its length-prefixed parts', () => {
    const secrets = randomBytes(32);
    const parts = ['tenant_x', 'whdlv_x', 1, null, true, 'é body'];
    const seal = new RedisSeal(secrets, 'direct-attempt');
    const text = parts.map((p) => (p === null ? '-:' : `${Buffer.byteLength(String(p))}:${String(p)}`)).join('');
    // The key a seal was made with before: HKDF of the secrets key for the purpose, as RedisSeal derives it.
    const key = Buffer.from(hkdfSync('sha256', secrets, Buffer.alloc(0), 'landing-customer-api/redis-seal/direct-attempt/v1', 32));
    expect(seal.of(parts)).toBe(createHmac('sha256', key).update(text).digest('base64url').slice(0, 22));
    expect(seal.holds(parts, seal.of(parts))).toBe(true);
    expect(seal.holds([...parts.slice(0, 5), 'another body'], seal.of(parts))).toBe(false);
  });
});
