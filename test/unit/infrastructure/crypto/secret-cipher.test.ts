import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_KEY_FILE, resolveEncryptionKey } from '../../../../src/infrastructure/crypto/encryption-key';
import { SecretCipher } from '../../../../src/infrastructure/crypto/secret-cipher';
import { testLogger } from '../../../support/silent-logger';

describe('SecretCipher (AES-256-GCM)', () => {
  const cipher = new SecretCipher(Buffer.alloc(32, 9));

  it('round-trips, with a fresh IV each time so equal secrets look different', () => {
    const a = cipher.encrypt('whsec_abc');
    const b = cipher.encrypt('whsec_abc');
    expect(a).not.toBe(b);
    expect(a).not.toContain('whsec_abc');
    expect(cipher.decrypt(a)).toBe('whsec_abc');
  });

  it('refuses altered text and another key', () => {
    const stored = cipher.encrypt('whsec_abc');
    const parts = stored.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'))).toThrow();
    expect(() => new SecretCipher(Buffer.alloc(32, 1)).decrypt(stored)).toThrow();
    expect(() => cipher.decrypt('plain')).toThrow('unknown secret format');
    expect(() => new SecretCipher(Buffer.alloc(16))).toThrow();
  });
});

describe('encryption key resolution', () => {
  it('uses the configured key as it is', () => {
    const key = Buffer.alloc(32, 3);
    expect(resolveEncryptionKey(key, '/nonexistent', testLogger())).toBe(key);
  });

  it('generates a development key once (owner-only file, with a warning) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lp-key-'));
    try {
      const lines: string[] = [];
      const first = resolveEncryptionKey(undefined, dir, testLogger(lines));
      expect(first).toHaveLength(32);
      expect(statSync(join(dir, DEV_KEY_FILE)).mode & 0o777).toBe(0o600);
      expect(lines.some((l) => l.includes('SECRETS_ENCRYPTION_KEY not set'))).toBe(true);
      expect(lines.join('')).not.toContain(readFileSync(join(dir, DEV_KEY_FILE), 'utf8'));
      const again = resolveEncryptionKey(undefined, dir, testLogger());
      expect(again.equals(first)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
