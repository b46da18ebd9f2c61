/**
 * The master key that encrypts credentials at rest: PAIFLOW_ENCRYPTION_KEY, or else a random key generated once
 * into DATA_DIR/encryption.key with mode 0600 (as n8n does). Losing it makes the stored credentials unreadable:
 * back it up with the database, or set PAIFLOW_ENCRYPTION_KEY (required when several replicas share a database).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const KEY_FILE = 'encryption.key';

/** `configured`: PAIFLOW_ENCRYPTION_KEY, already checked by the settings (16 characters or more). */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return deriveKey(configured);
  const file = path.join(path.resolve(dataDir), KEY_FILE);
  try {
    return deriveKey(readFileSync(file, 'utf8').trim());
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: if another process wrote it first, we read theirs instead of overwriting it.
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return deriveKey(readFileSync(file, 'utf8').trim());
}

/** Any configured text becomes a 256-bit key. */
function deriveKey(text: string): Buffer {
  return createHash('sha256').update(`paiflow-credentials-v1\n${text}`).digest();
}
