/**
 * Single sign-on's settings (the OIDC_* variables, engine/config/variables.ts), as the sign-in reads them: null while
 * OIDC_ISSUER is unset. Read per request, so a test (or a restart with other settings) sees its own.
 */
import type { Settings } from '@/engine/config/settings';
import type { SsoRole } from '@/engine/config/sso-values';

export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  defaultRole: SsoRole;
  /** The claim whose values OIDC_ROLE_MAP maps to roles; with it, every sign-in sets the user's role from the claim. */
  roleClaim?: string;
  roleMap: ReadonlyArray<readonly [string, SsoRole]>;
  /** The name on the "Sign in with …" button. */
  name: string;
}

/** Where the login page's button goes. */
export const SSO_START_PATH = '/api/auth/oidc/start';
export const SSO_CALLBACK_PATH = '/api/auth/oidc/callback';

export function ssoSettingsOf(s: Settings): SsoSettings | null {
  if (!s.OIDC_ISSUER || !s.OIDC_CLIENT_ID) return null;
  return {
    issuer: s.OIDC_ISSUER,
    clientId: s.OIDC_CLIENT_ID,
    clientSecret: s.OIDC_CLIENT_SECRET,
    scopes: s.OIDC_SCOPES,
    defaultRole: s.OIDC_DEFAULT_ROLE,
    roleClaim: s.OIDC_ROLE_CLAIM,
    roleMap: s.OIDC_ROLE_MAP ?? [],
    name: s.OIDC_NAME ?? new URL(s.OIDC_ISSUER).host,
  };
}
