/**
 * Credentials as the node runtime sees them: resolved by id at the moment of sending, only within the run's own
 * workspace, and only for the hosts they are bound to. Nothing above the runtime ever holds a credential's value.
 */
import { PaiError } from '../errors';

export interface ResolvedCredential {
  id: string;
  name: string;
  type: 'openai' | 'http_header' | 'bearer' | 'basic';
  /** Where it may be sent: host names, `host:port` or `*.domain`; for `openai`, its base URL's origin. */
  hosts: string[];
  data: Record<string, string>;
}

export interface CredentialResolver {
  /** The credential `credentialId` of the workspace that `runId` belongs to; another workspace's is not found. */
  resolve(runId: string, credentialId: string): Promise<ResolvedCredential>;
}

/** May `cred` be sent to `url`? An `openai` credential: only to its base URL's origin; others: to their hosts. */
export function credentialAllows(cred: ResolvedCredential, url: URL): boolean {
  if (cred.type === 'openai') {
    try {
      return new URL(cred.data.baseUrl).origin === url.origin;
    } catch {
      return false;
    }
  }
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return cred.hosts.some((p) => {
    if (p.startsWith('*.')) return hostname.endsWith(p.slice(1)) && hostname.length > p.length - 1;
    return p.includes(':') && !p.startsWith('[') ? p === host : p === hostname || p === host;
  });
}

export function assertCredentialAllows(cred: ResolvedCredential, url: URL, path: string): void {
  if (!credentialAllows(cred, url)) {
    const where = cred.type === 'openai' ? new URL(cred.data.baseUrl).origin : cred.hosts.join(', ') || 'no host';
    throw new PaiError(
      'SECRET_HOST_NOT_ALLOWED',
      `credential "${cred.name}" may not be sent to ${url.host} (it is bound to ${where})`,
      { status: 400, path },
    );
  }
}
