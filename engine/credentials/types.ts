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
  return hostsAllow(cred.hosts, url);
}

/**
 * Does a host list allow `url`? `host:port` allows that port (http or https); a bare `host` (or `*.domain`) only
 * https on its default port, so a secret bound to `api.example.com` never travels in clear text or to another port.
 */
export function hostsAllow(hosts: string[], url: URL): boolean {
  const hostname = url.hostname.toLowerCase();
  const explicitPort = /:\d+$/.test(url.host) ? url.host.toLowerCase() : null;
  return hosts.some((p) => {
    const withPort = /:\d{1,5}$/.test(p);
    if (withPort)
      return explicitPort === p || (!explicitPort && p === `${hostname}:${url.protocol === 'https:' ? 443 : 80}`);
    if (url.protocol !== 'https:' || explicitPort) return false;
    if (p.startsWith('*.')) return hostname.endsWith(p.slice(1)) && hostname.length > p.length - 1;
    return p === hostname;
  });
}

/** The values of a credential that are secret (scrubbed from anything stored if a server echoes them). */
export function secretValuesOf(cred: ResolvedCredential): string[] {
  const d = cred.data;
  switch (cred.type) {
    case 'openai':
      return [d.apiKey];
    case 'http_header':
      return [d.value];
    case 'bearer':
      return [d.token];
    case 'basic':
      return [d.password, Buffer.from(`${d.username}:${d.password}`).toString('base64')];
  }
}

export function assertCredentialAllows(cred: ResolvedCredential, url: URL, path: string): void {
  if (!credentialAllows(cred, url)) {
    const where = cred.type === 'openai' ? new URL(cred.data.baseUrl).origin : cred.hosts.join(', ') || 'no host';
    throw new PaiError(
      'SECRET_HOST_NOT_ALLOWED',
      `credential "${cred.name}" may not be sent to ${url.host} (it is bound to ${where})`,
      { path },
    );
  }
}
