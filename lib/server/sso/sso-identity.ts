/**
 * Who a verified ID token says the user is, in PaiFlow's terms: the identity (issuer + subject), the e-mail address
 * and whether the issuer verified it, a display name, and the role the settings give them (OIDC_ROLE_CLAIM mapped by
 * OIDC_ROLE_MAP, the highest role any value maps to; else OIDC_DEFAULT_ROLE).
 */
import type { SsoRole } from '@/engine/config/sso-values';
import { normalizeEmail } from '../auth/accounts';
import type { Claims } from './issuer-client';
import type { SsoSettings } from './sso-settings';

export interface SsoIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name: string;
  role: SsoRole;
  /** The role came from OIDC_ROLE_CLAIM (the issuer decides the role at every sign-in), not from the default. */
  roleFromClaim: boolean;
}

const RANK: Record<SsoRole, number> = { viewer: 0, editor: 1, admin: 2 };
const NAME_MAX = 100;

/** The claim's value: a top-level claim by its exact name (`groups`, `https://example.com/roles`), else a path. */
export function claimValue(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  return name.split('.').reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k], claims);
}

/** The claim's values as strings: a list, or one string (several, when space- or comma-separated). */
function valuesOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : [];
}

export function roleOf(claims: Record<string, unknown>, sso: SsoSettings): { role: SsoRole; fromClaim: boolean } {
  if (!sso.roleClaim) return { role: sso.defaultRole, fromClaim: false };
  const values = new Set(valuesOf(claimValue(claims, sso.roleClaim)));
  const mapped = sso.roleMap.filter(([value]) => values.has(value)).map(([, role]) => role);
  const role = mapped.length ? mapped.reduce((a, b) => (RANK[b] > RANK[a] ? b : a)) : sso.defaultRole;
  return { role, fromClaim: true };
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export function identityOf(claims: Claims, sso: SsoSettings): SsoIdentity {
  // Azure AD sends no `email` for accounts without a mailbox; its user principal name is address-shaped.
  const address = text(claims.email) ?? text(claims.preferred_username);
  const email = address && /^[^\s@]+@[^\s@]+$/.test(address) ? normalizeEmail(address) : undefined;
  // Only the issuer's own `email_verified: true` counts (AWS Cognito writes it as a string).
  const emailVerified = !!text(claims.email) && (claims.email_verified === true || claims.email_verified === 'true');
  const name = text(claims.name) ?? text(claims.preferred_username) ?? email?.split('@')[0] ?? claims.sub;
  const { role, fromClaim } = roleOf(claims, sso);
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email,
    emailVerified,
    name: name.slice(0, NAME_MAX),
    role,
    roleFromClaim: fromClaim,
  };
}
