/**
 * The acceptance suite's one server: builds the app once (unless ACCEPTANCE_SKIP_BUILD=1 says the caller already
 * did, as scripts/test.mjs does), starts it for the profile in ACCEPTANCE_PROFILE (embedded | postgres | queue) and
 * hands every journey its address and an owner's token. Journeys that need a server of their own (first-run setup,
 * crashes) start it with support/server.ts.
 *
 * Local services a journey runs (a scripted OpenAI-compatible model, a webhook receiver, an OTLP collector) listen on
 * ports reserved here, because the server must be told at start-up which internal host:ports it may call
 * (HTTP_ALLOWLIST) and where to export traces (OTEL_EXPORTER_OTLP_ENDPOINT).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { ownerClient } from './client';
import { freePort, PROFILES, ROOT, startServer, type Profile } from './server';

export const RESERVED_PORTS = ['openai', 'receiver', 'otlp', 'oidc', 'spare'] as const;
export type ReservedPort = (typeof RESERVED_PORTS)[number];

declare module 'vitest' {
  export interface ProvidedContext {
    acceptance: {
      profile: Profile;
      baseURL: string;
      token: string;
      ports: Record<ReservedPort, number>;
      /** The environment the server was started with (a journey that starts its own server reuses it). */
      env: Record<string, string>;
    };
  }
}

export function build() {
  const t0 = Date.now();
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout?.slice(-8000)}\n${r.stderr?.slice(-8000)}`);
  console.log(`[acceptance] npm run build: ${Math.round((Date.now() - t0) / 1000)} s`);
}

export default async function setup(project: TestProject) {
  const profile = (process.env.ACCEPTANCE_PROFILE ?? 'embedded') as Profile;
  if (!PROFILES.includes(profile)) throw new Error(`ACCEPTANCE_PROFILE must be one of ${PROFILES.join(', ')}`);
  if (process.env.ACCEPTANCE_SKIP_BUILD !== '1') build();
  const ports = {} as Record<ReservedPort, number>;
  for (const name of RESERVED_PORTS) ports[name] = await freePort();
  const t0 = Date.now();
  const server = await startServer({
    profile,
    env: {
      // Not the OpenID Connect issuer: as the operator's own service it is let through without the allowlist.
      HTTP_ALLOWLIST: RESERVED_PORTS.filter((p) => p !== 'oidc')
        .map((p) => `127.0.0.1:${ports[p]}`)
        .join(','),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${ports.otlp}`,
      // Single sign-on at the provider acceptance/oidc-sign-in-… runs on its reserved port.
      OIDC_ISSUER: `http://127.0.0.1:${ports.oidc}`,
      OIDC_CLIENT_ID: 'paiflow-acceptance',
      OIDC_CLIENT_SECRET: randomBytes(16).toString('hex'),
      OIDC_NAME: 'Acceptance IdP',
    },
  });
  console.log(
    `[acceptance] ${profile}: server ready in ${Math.round((Date.now() - t0) / 1000)} s at ${server.baseURL}`,
  );
  const client = await ownerClient(server.baseURL);
  project.provide('acceptance', {
    profile,
    baseURL: server.baseURL,
    token: client.headers.authorization.replace(/^Bearer /, ''),
    ports,
    env: server.env,
  });
  return async () => {
    if (process.env.ACCEPTANCE_SERVER_LOG === '1') console.log(server.log());
    await server.kill('SIGTERM');
  };
}
