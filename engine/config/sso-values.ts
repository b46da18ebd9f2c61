/**
 * How the OpenID Connect single sign-on variables (OIDC_*, engine/config/variables.ts) are read. What they do is
 * lib/server/sso/ and docs/single-sign-on.md.
 */

/**
 * The workspace roles single sign-on may give (lib/server/auth/policy.ts has them all). Not `owner`: an owner is made
 * by an owner, never by an identity provider's group list.
 */
export const SSO_ROLES = ['admin', 'editor', 'viewer'] as const;
export type SsoRole = (typeof SSO_ROLES)[number];

/** The default of OIDC_DEFAULT_ROLE: the least role, so an unexpected sign-in can read and change nothing. */
export const DEFAULT_SSO_ROLE: SsoRole = 'viewer';

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function ssoRole(v: string, where: string): SsoRole {
  const role = v.trim().toLowerCase();
  if (role === 'owner') throw new Error(`${where}gives "owner", which only an owner may give`);
  if (!(SSO_ROLES as readonly string[]).includes(role)) throw new Error(`${where}"${v.trim()}" is not a role`);
  return role as SsoRole;
}

/**
 * OIDC_ISSUER: the issuer identifier, without a trailing slash unless the issuer has one in its own metadata (it is
 * compared exactly). https only; http is accepted for a loopback host (a provider on the same machine, tests).
 */
export function parseIssuer(v: string | undefined): string | undefined {
  const s = v?.trim();
  if (!s) return undefined;
  if (!URL.canParse(s)) throw new Error('is not a URL');
  const u = new URL(s);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK_HOST.test(u.host.replace(/:\d+$/, ''))))
    throw new Error('is not an https:// URL (http:// is accepted only for localhost)');
  if (u.search || u.hash || u.username || u.password) throw new Error('has a query, fragment or user name');
  return s;
}

/** OIDC_SCOPES: space-separated scopes; `openid` must be among them (without it there is no ID token). */
export function parseScopes(v: string | undefined): string {
  const scopes = (v ?? '').trim().split(/\s+/).filter(Boolean);
  if (!scopes.length) return 'openid email profile';
  if (!scopes.includes('openid')) throw new Error('does not include openid');
  return scopes.join(' ');
}

export function parseDefaultRole(v: string | undefined): SsoRole {
  return v?.trim() ? ssoRole(v, '') : DEFAULT_SSO_ROLE;
}

/**
 * OIDC_ROLE_MAP: `value:role` pairs, comma-separated (`paiflow-admins:admin,devs:editor`): a user whose
 * OIDC_ROLE_CLAIM holds `value` gets `role`. The value is everything before the last colon, so group paths and URNs
 * with colons work. Unset: no mapping.
 */
export function parseRoleMap(v: string | undefined): ReadonlyArray<readonly [string, SsoRole]> | undefined {
  if (!v?.trim()) return undefined;
  const pairs = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      const value = entry.slice(0, colon).trim();
      if (colon < 0 || !value) throw new Error(`entry "${entry}" is not value:role`);
      return Object.freeze([value, ssoRole(entry.slice(colon + 1), `entry "${entry}" `)] as const);
    });
  return Object.freeze(pairs);
}
