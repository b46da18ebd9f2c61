/** AES-256-GCM for credential values; the ciphertext is bound to its record (AAD), so it cannot be swapped. */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { PaiError } from '@/engine/errors';

export function encrypt(key: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64'), c.getAuthTag().toString('base64'), ct.toString('base64')].join(':');
}

export function decrypt(key: Buffer, stored: string, aad: string): string {
  const [v, iv, tag, ct] = stored.split(':');
  try {
    if (v !== 'v1') throw new Error('unknown format');
    const authTag = Buffer.from(tag, 'base64');
    if (authTag.length !== 16) throw new Error('bad tag length');
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), { authTagLength: 16 });
    d.setAAD(Buffer.from(aad));
    d.setAuthTag(authTag);
    return Buffer.concat([d.update(Buffer.from(ct, 'base64')), d.final()]).toString('utf8');
  } catch {
    throw new PaiError(
      'CREDENTIAL_UNREADABLE',
      'the credential cannot be decrypted: the encryption key ' +
        '(PAIFLOW_ENCRYPTION_KEY or DATA_DIR/encryption.key) changed',
    );
  }
}
