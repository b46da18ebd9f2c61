/**
 * PaiFlow as an OpenID Connect relying party, on openid-client: discovery, the authorization request (code flow,
 * PKCE S256, state, nonce) and the callback (state, PKCE and nonce checked; the ID token's signature verified against
 * the issuer's JWKS, its issuer, audience and times checked).
 *
 * Every request to the issuer goes through the one SSRF guard (engine/net). OIDC_ISSUER is the operator's own
 * service, like an MCP_SERVERS URL: its host:port may be on loopback or the LAN (a Keycloak beside PaiFlow), while its
 * DNS answers are still checked and pinned and metadata addresses stay refused. Endpoints the discovery document names
 * elsewhere (Google's token host) must be public, or in HTTP_ALLOWLIST.
 */
import * as oidc from 'openid-client';
import { PaiError } from '@/engine/errors';
import { createGuardedFetch, hostPortKey, parseAllowlist } from '@/engine/net/ssrf-guard';
import type { SsoSettings } from './sso-settings';

/** How long one request to the issuer may take. */
const ISSUER_TIMEOUT_MS = 10_000;
/** Discovery documents are kept this long (the JWKS inside is refetched by the library when a new key appears). */
const DISCOVERY_TTL_MS = 60 * 60_000;

/** The claims of a verified ID token (and, where it lacked some, of the userinfo answer). */
export type Claims = Record<string, unknown> & { iss: string; sub: string };

const configs = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

/**
 * client_secret_basic when the issuer accepts it (the default of OpenID Connect's client registration, and what
 * Keycloak, Azure AD and Google all accept), else client_secret_post; no secret: a public client (PKCE only).
 */
function clientAuth(secret: string | undefined): oidc.ClientAuth {
  if (!secret) return oidc.None();
  return (as, client, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported;
    const basic = !methods || methods.includes('client_secret_basic');
    (basic ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret))(as, client, body, headers);
  };
}

/** The issuer's configuration, discovered once per settings (a failed discovery is tried again next time). */
export function issuerConfig(sso: SsoSettings, httpAllowlist: string | undefined): Promise<oidc.Configuration> {
  const key = JSON.stringify([sso.issuer, sso.clientId, sso.clientSecret ?? '', httpAllowlist ?? '']);
  const hit = configs.get(key);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
  const guarded = createGuardedFetch({
    allowlist: parseAllowlist(httpAllowlist),
    operatorHosts: [hostPortKey(new URL(sso.issuer))],
  });
  const customFetch: oidc.CustomFetch = (url, options) =>
    guarded(url, { ...(options as RequestInit), timeoutMs: ISSUER_TIMEOUT_MS });
  const config = oidc
    .discovery(new URL(sso.issuer), sso.clientId, undefined, clientAuth(sso.clientSecret), {
      [oidc.customFetch]: customFetch,
      // http:// is accepted by the settings only for a loopback issuer (engine/config/sso-values.ts).
      execute: new URL(sso.issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      timeout: ISSUER_TIMEOUT_MS / 1000,
    })
    .then((c) => {
      oidc.enableNonRepudiationChecks(c);
      return c;
    });
  configs.set(key, { at: Date.now(), config });
  config.catch(() => {
    if (configs.get(key)?.config === config) configs.delete(key);
  });
  return config;
}

export interface AuthorizationRequest {
  url: URL;
  state: string;
  nonce: string;
  verifier: string;
}

export async function authorizationRequest(
  config: oidc.Configuration,
  sso: SsoSettings,
  redirectUri: string,
): Promise<AuthorizationRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: sso.scopes,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, state, nonce, verifier };
}

/**
 * Exchanges the callback's code for tokens and answers the verified ID token's claims. `callbackUrl`: the
 * redirect_uri of the authorization request with the callback's query. Claims the ID token lacks (`needed`: the
 * e-mail address, the role claim) are read from the userinfo endpoint, for the same subject.
 */
export async function redeemCallback(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; verifier: string },
  needed: string[],
): Promise<Claims> {
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    pkceCodeVerifier: checks.verifier,
    idTokenExpected: true,
  });
  const claims = tokens.claims() as Claims | undefined;
  if (!claims) throw new PaiError('SSO_TOKEN_REJECTED', 'the issuer answered without an ID token');
  const missing = needed.filter((c) => claims[c] === undefined);
  if (!missing.length || !config.serverMetadata().userinfo_endpoint || !tokens.access_token) return claims;
  // The address and whether it is verified come together, from one source.
  if (missing.includes('email')) missing.push('email_verified');
  const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  return { ...claims, ...Object.fromEntries(missing.filter((c) => info[c] !== undefined).map((c) => [c, info[c]])) };
}
