/** The credential types, what each holds, where each may be sent, and how it is shown masked. */
import { z } from 'zod';
import { PROVIDER_IDS } from '@/engine/llm/catalogue';
import { priceTableSchema } from '@/engine/llm/prices';
import { nameSchema } from '@/engine/text/names';

const secretText = z.string().min(1, 'required').max(10_000);
const hostPattern = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:]+\](:\d{1,5})?$/, 'a host name, host:port or *.domain');

export const credentialDataSchemas = {
  openai: z.strictObject({
    /** A catalogue provider (GET /api/providers): fills `baseUrl` when it is left out. Default: `openai`. */
    provider: z.enum(PROVIDER_IDS).optional(),
    /** Default: the provider's base URL (`openai_compatible` has none: then it is required). */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** Optional for a provider that runs without one (the catalogue's `needsKey`: Ollama, vLLM, LM Studio …). */
    apiKey: secretText.optional(),
    /** This provider's prices, USD per million tokens, over MODEL_PRICES and the built-in list (not secret). */
    prices: priceTableSchema.optional(),
  }),
  http_header: z.strictObject({
    name: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'a header name'),
    value: secretText,
  }),
  bearer: z.strictObject({ token: secretText }),
  basic: z.strictObject({ username: z.string().min(1).max(1000), password: secretText }),
} as const;

export const CREDENTIAL_TYPES = Object.keys(credentialDataSchemas) as CredentialType[];
export type CredentialType = keyof typeof credentialDataSchemas;

/** `data` is checked with its type's schema afterwards, so an error names that type's fields. */
export const createCredentialSchema = z.strictObject({
  name: nameSchema(100),
  type: z.enum(['openai', 'http_header', 'bearer', 'basic']),
  data: z.record(z.string(), z.unknown()),
  /** Hosts the credential may be sent to (not for `openai`: its base URL's origin is the only one). */
  hosts: z.array(hostPattern).max(50).optional(),
});

/** Masks a secret: `sk-…abcd` (the first three and last four characters of a long one, less of a short one). */
export function mask(secret: string): string {
  if (secret.length >= 16) return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
  if (secret.length >= 8) return `…${secret.slice(-2)}`;
  return '…';
}

export function maskedOf(type: CredentialType, data: Record<string, string>): string {
  switch (type) {
    case 'openai':
      // No key (a local server that needs none): nothing to mask, the list says so.
      return data.apiKey ? mask(data.apiKey) : '';
    case 'http_header':
      return `${data.name}: ${mask(data.value)}`;
    case 'bearer':
      return `Bearer ${mask(data.token)}`;
    case 'basic':
      return `${data.username}:${mask(data.password)}`;
  }
}
