import { PaiError } from '../errors';

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}$/;

/**
 * Checks a blob key (`runs/<runId>/<artifactId>`): `/`-separated segments of letters, digits, `_`, `-` and `.`, none
 * starting with a dot, so a key can never climb out of the local folder or mean anything special to S3.
 */
export function checkBlobKey(key: string): string {
  const parts = key.split('/');
  if (!key || parts.length > 8 || !parts.every((p) => SEGMENT.test(p)))
    throw new PaiError('ARTIFACT_KEY_INVALID', `invalid artifact storage key "${key.slice(0, 100)}"`);
  return key;
}
