/**
 * A real OpenID Connect provider for the single sign-on tests: `oidc-provider` (the certified Node implementation),
 * on a loopback port, with one client registered for PaiFlow's callback and test accounts with their claims. Its
 * login and consent pages are replaced by a handler that signs in whichever account the test chose (`signInAs`), so a
 * test walks the whole redirect chain with fetch — as a browser would, cookies included (`Browser`) — without a form.
 * Used by the vitest tests, the acceptance suite and the e2e spec alike; it imports nothing of the app.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next sign-ins at this provider log in as (an id of `accounts`); null: the user cancels. */
  signInAs(accountId: string | null): void;
  /** Adds or replaces an account. */
  setAccount(accountId: string, account: TestAccount): void;
  close(): Promise<void>;
}

export interface TestProviderOptions {
  redirectUris: string[];
  accounts: Record<string, TestAccount>;
  clientId?: string;
  clientSecret?: string;
  /** A port reserved for it (the server under test was told the issuer at start-up); default: any free one. */
  port?: number;
}

export async function startOidcProvider(opts: TestProviderOptions): Promise<TestProvider> {
  const { default: Provider } = await import('oidc-provider');
  const accounts = new Map(Object.entries(opts.accounts));
  let next: string | null = Object.keys(opts.accounts)[0] ?? null;
  const clientId = opts.clientId ?? 'paiflow';
  const clientSecret = opts.clientSecret ?? randomBytes(16).toString('hex');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(4).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  };

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    // The scopes' claims go into the ID token too (as Keycloak and Azure AD put them there).
    conformIdTokenClaims: false,
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      return account && { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });

  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    // The login and consent prompts, answered at once for the chosen account.
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (next === null) {
        const cancelled = { error: 'access_denied', error_description: 'End-User aborted interaction' };
        return provider.interactionFinished(req, res, cancelled, { mergeWithLastSubmission: false });
      }
      if (details.prompt.name === 'login')
        return provider.interactionFinished(
          req,
          res,
          { login: { accountId: next } },
          { mergeWithLastSubmission: false },
        );
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
      if (details.prompt.details.missingOIDCScope)
        grant!.addOIDCScope(details.prompt.details.missingOIDCScope.join(' '));
      if (details.prompt.details.missingOIDCClaims) grant!.addOIDCClaims(details.prompt.details.missingOIDCClaims);
      await provider.interactionFinished(req, res, { consent: { grantId: await grant!.save() } });
    })().catch((e: Error) => {
      res.statusCode = 500;
      res.end(`test provider interaction failed: ${e.message}`);
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(accountId) {
      if (accountId !== null && !accounts.has(accountId)) throw new Error(`no test account ${accountId}`);
      next = accountId;
    },
    setAccount(accountId, account) {
      accounts.set(accountId, account);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a browser does between PaiFlow's redirect to the issuer and the issuer's redirect back: follows redirects,
 * keeping each origin's cookies (Set-Cookie → Cookie; a Max-Age=0 cookie is forgotten).
 */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  cookieHeader(url: string): string {
    const jar = this.jars.get(new URL(url).origin);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  /** One `name=value` the origin of `url` set, or undefined. */
  cookie(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).origin)?.get(name);
  }

  keep(url: string, headers: Headers): void {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    for (const c of headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    const cookie = this.cookieHeader(url);
    const res = await fetch(url, { redirect: 'manual', headers: { ...headers, ...(cookie ? { cookie } : {}) } });
    this.keep(url, res.headers);
    return res;
  }

  /** Follows redirects from `url` until one goes to a URL `stop` accepts; answers that URL (not fetched). */
  async follow(url: string, stop: (url: string) => boolean, maxHops = 20): Promise<string> {
    let at = url;
    for (let hop = 0; hop < maxHops; hop++) {
      if (stop(at)) return at;
      const res = await this.get(at);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || !location)
        throw new Error(`the redirect chain stopped at ${at}: ${res.status} ${(await res.text()).slice(0, 500)}`);
      await res.body?.cancel();
      at = new URL(location, at).href;
    }
    throw new Error(`more than ${maxHops} redirects from ${url}`);
  }
}
