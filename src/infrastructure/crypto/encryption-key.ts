import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../application/shared/logger.port';

export const DEV_KEY_FILE = 'secrets-encryption.key';

/**
 * SECRETS_ENCRYPTION_KEY when set (required in production: the configuration refuses to start
 * without it). In development, a key generated once under the data dir, with a warning, so the
 * quick start needs no setup and secrets stay readable across restarts.
 */
export function resolveEncryptionKey(configured: Buffer | undefined, dataDir: string, logger: Logger): Buffer {
  if (configured) return configured;
  const file = join(dataDir, DEV_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    logger.warn({ file }, 'SECRETS_ENCRYPTION_KEY not set: generated a development key; set the variable in production');
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold base64 of 32 bytes`);
  return key;
}
