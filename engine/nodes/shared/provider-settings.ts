/**
 * Where an LLM or Agent node sends its model calls, and with which key: a credential (`credentialId`, an
 * OpenAI-compatible provider of the run's workspace: its base URL and key, or none for a local server), else a named
 * secret (to a node's own `provider.baseUrl` only where SECRET_<NAME>_HOSTS allows), else the server's settings.
 * With a credential, `provider.baseUrl` may only name the credential's origin. A node's own base URL without a key is
 * called without one; OPENAI_API_KEY goes only to OPENAI_BASE_URL (llm/resolve-provider.ts).
 */
import { z } from 'zod';
import { assertCredentialAllows, hostsAllow, type ResolvedCredential } from '../../credentials/types';
import { PaiError } from '../../errors';
import { parsePriceTable } from '../../llm/prices';
import type { ProviderSettings } from '../../llm/types';
import { scrub } from '../../text/scrub';
import type { NodeContext } from '../../node-kit/define';

export const providerConfigSchema = z
  .strictObject({
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('OpenAI-compatible base URL; default: the credential’s, else OPENAI_BASE_URL'),
    apiKeySecret: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional()
      .describe('Name of a secret holding the API key; default OPENAI_API_KEY'),
  })
  .default({});

export const credentialIdSchema = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe('An OpenAI-compatible credential of this workspace (base URL + API key)');

export async function credentialFor(
  ctx: Pick<NodeContext, 'credentials' | 'runId'>,
  credentialId: string,
): Promise<ResolvedCredential> {
  if (!ctx.credentials)
    throw new PaiError('CREDENTIALS_UNAVAILABLE', 'credentials are not available here', {
      path: 'config.credentialId',
    });
  return ctx.credentials.resolve(ctx.runId, credentialId);
}

export async function providerSettings(
  ctx: Pick<NodeContext, 'credentials' | 'runId' | 'secrets'>,
  c: { credentialId?: string; provider?: { baseUrl?: string; apiKeySecret?: string } },
): Promise<ProviderSettings> {
  if (c.credentialId) {
    const cred = await credentialFor(ctx, c.credentialId);
    if (cred.type !== 'openai')
      throw new PaiError(
        'CREDENTIAL_TYPE',
        `credential "${cred.name}" is a ${cred.type} credential, not an OpenAI-compatible provider`,
        {
          path: 'config.credentialId',
        },
      );
    const baseURL = c.provider?.baseUrl || cred.data.baseUrl;
    assertCredentialAllows(cred, new URL(baseURL), 'config.provider.baseUrl');
    return { baseURL, apiKey: cred.data.apiKey, ...pricesOf(cred) };
  }
  let apiKey: string | undefined;
  const name = c.provider?.apiKeySecret;
  if (name) {
    apiKey = ctx.secrets.get(name);
    if (!apiKey)
      throw new PaiError('SECRET_NOT_FOUND', `secret "${name}" is not configured`, {
        path: 'config.provider.apiKeySecret',
      });
    // A node's own base URL gets an environment secret only where SECRET_<NAME>_HOSTS allows it.
    const own = c.provider?.baseUrl ? new URL(c.provider.baseUrl) : undefined;
    if (own && !hostsAllow(ctx.secrets.hosts?.(name) ?? [], own))
      throw new PaiError(
        'SECRET_HOST_NOT_ALLOWED',
        `secret "${name}" may not be sent to ${own.host}: list it in SECRET_${name}_HOSTS`,
        { path: 'config.provider.baseUrl' },
      );
  }
  return { baseURL: c.provider?.baseUrl, apiKey };
}

/** An OpenAI-compatible credential's own `prices` (checked when it was saved; checked again, it may be older). */
function pricesOf(cred: ResolvedCredential): Pick<ProviderSettings, 'prices'> {
  const raw = (cred.data as Record<string, unknown>).prices;
  if (raw === undefined || raw === null) return {};
  try {
    return { prices: parsePriceTable(raw) };
  } catch (e) {
    throw new PaiError('CREDENTIAL_INVALID', `credential "${cred.name}" has invalid prices: ${(e as Error).message}`, {
      path: 'config.credentialId',
    });
  }
}

/** `e` with every given secret replaced by "[redacted]" in its message and details (the same error object). */
export function scrubbedError(e: unknown, secrets: Array<string | undefined>): unknown {
  const list = secrets.filter((x): x is string => !!x);
  if (!list.length || !(e instanceof Error)) return e;
  e.message = scrub(e.message, list);
  const withDetails = e as Error & { details?: unknown };
  if (withDetails.details !== undefined) withDetails.details = scrub(withDetails.details, list);
  return e;
}
