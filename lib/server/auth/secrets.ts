/** Bearer secrets (session tokens, personal access tokens, invitation tokens): random, and stored only as sha256. */
import { createHash, randomBytes } from 'node:crypto';

export function newSecret(prefix = ''): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function sha256(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}
