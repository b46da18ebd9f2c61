/**
 * Asking a model provider about a credential: does the key work (POST /api/credentials/:id/test), and which models
 * can it call (GET /api/credentials/:id/models). Every call goes through the SSRF guard, with the credential's key,
 * only to the credential's own base URL. A failure is an answer, not an error: `{ ok: false, error }` says why —
 * a key the provider refused, a host that does not answer, or an address the guard refuses (with the HTTP_ALLOWLIST
 * entry that would let it through).
 */
import { PaiError } from '@/engine/errors';
import type { ResolvedCredential } from '@/engine/credentials/types';
import {
  catalogueProvider,
  kindOfModel,
  providerOfHost,
  type CatalogueProvider,
  type ModelKind,
} from '@/engine/llm/catalogue';
import { OpenAiCompatibleProvider } from '@/engine/llm/openai-provider';
import type { GuardedFetch } from '@/engine/net/ssrf-guard';
import { scrub } from '@/engine/text/scrub';
import type { CredentialVault } from './credentials';

export interface ModelEntry {
  id: string;
  kind: ModelKind;
}

export interface CredentialTestResult {
  ok: boolean;
  latencyMs: number;
  /** The provider's own list, when it has one. */
  models?: ModelEntry[];
  /** The model a tiny completion was sent to, when the provider lists none. */
  model?: string;
  error?: { code: string; message: string };
}

export interface ModelList {
  models: ModelEntry[];
  /** `provider`: its live `/models` list; `catalogue`: PaiFlow's list for that provider (it did not answer). */
  source: 'provider' | 'catalogue';
}

/** A provider's answer to a models list that means "no such endpoint here": then a completion tests the key. */
const NO_LIST = new Set([404, 405, 501]);
const TEST_TIMEOUT_MS = 15_000;
const LIST_TTL_MS = 5 * 60_000;
const MAX_CACHED_LISTS = 200;

export class ProviderCheck {
  private readonly lists = new Map<string, { at: number; list: ModelList }>();

  constructor(
    private readonly vault: Pick<CredentialVault, 'resolveInWorkspace'>,
    private readonly fetch: GuardedFetch,
  ) {}

  async test(workspaceId: string, credentialId: string, model?: string): Promise<CredentialTestResult> {
    const { cred, provider } = await this.openai(workspaceId, credentialId);
    const client = this.clientOf(cred);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      if (provider.listsModels && !model) {
        try {
          const models = entries(await client.listModels(), provider);
          this.remember(workspaceId, credentialId, { models, source: 'provider' });
          return { ok: true, latencyMs: elapsed(), models };
        } catch (err) {
          if (!NO_LIST.has(upstreamStatus(err))) throw err;
        }
      }
      const chatModel = model ?? provider.models.find((m) => m.kind === 'chat')?.id;
      if (!chatModel)
        return {
          ok: false,
          latencyMs: elapsed(),
          error: {
            code: 'PROVIDER_MODEL_NEEDED',
            message: 'this provider lists no models: name a model to test the key with',
          },
        };
      await client.chat({ model: chatModel, messages: [{ role: 'user', content: 'Hi' }], maxTokens: 1 });
      return { ok: true, latencyMs: elapsed(), model: chatModel };
    } catch (err) {
      return { ok: false, latencyMs: elapsed(), error: failureOf(err, cred) };
    }
  }

  /** The provider's models when it lists them (kept 5 minutes), else the catalogue's for that provider. */
  async models(workspaceId: string, credentialId: string): Promise<ModelList> {
    const { cred, provider } = await this.openai(workspaceId, credentialId);
    const key = `${workspaceId}/${credentialId}`;
    const cached = this.lists.get(key);
    if (cached && Date.now() - cached.at < LIST_TTL_MS) return cached.list;
    const catalogue: ModelList = {
      models: entries(
        provider.models.map((m) => m.id),
        provider,
      ),
      source: 'catalogue',
    };
    if (!provider.listsModels) return catalogue;
    try {
      const list: ModelList = { models: entries(await this.clientOf(cred).listModels(), provider), source: 'provider' };
      this.remember(workspaceId, credentialId, list);
      return list;
    } catch {
      return catalogue;
    }
  }

  private async openai(workspaceId: string, credentialId: string) {
    if (credentialId.startsWith('env:'))
      throw new PaiError(
        'CREDENTIAL_NOT_TESTABLE',
        'an environment credential is a plain secret, not a model provider: only OpenAI-compatible credentials ' +
          'can be tested or list models',
      );
    const cred = await this.vault.resolveInWorkspace(workspaceId, credentialId, 'id');
    if (cred.type !== 'openai')
      throw new PaiError(
        'CREDENTIAL_NOT_TESTABLE',
        `a ${cred.type} credential is not a model provider: only OpenAI-compatible credentials can be tested or ` +
          'list models',
      );
    const provider: CatalogueProvider =
      (cred.data.provider ? catalogueProvider(cred.data.provider) : undefined) ??
      providerOfHost(new URL(cred.data.baseUrl).host);
    return { cred, provider };
  }

  private clientOf(cred: ResolvedCredential): OpenAiCompatibleProvider {
    return new OpenAiCompatibleProvider({
      apiKey: cred.data.apiKey,
      baseURL: cred.data.baseUrl,
      maxRetries: 0,
      timeoutMs: TEST_TIMEOUT_MS,
      fetch: this.fetch as typeof globalThis.fetch,
    });
  }

  private remember(workspaceId: string, credentialId: string, list: ModelList) {
    if (this.lists.size >= MAX_CACHED_LISTS) this.lists.delete(this.lists.keys().next().value!);
    this.lists.set(`${workspaceId}/${credentialId}`, { at: Date.now(), list });
  }
}

function entries(ids: string[], provider: CatalogueProvider): ModelEntry[] {
  return [...new Set(ids)].sort().map((id) => ({ id, kind: kindOfModel(id, provider) }));
}

function upstreamStatus(err: unknown): number {
  const details = err instanceof PaiError ? (err.details as { upstreamStatus?: unknown } | undefined) : undefined;
  return typeof details?.upstreamStatus === 'number' ? details.upstreamStatus : 0;
}

/** Why a test failed, in the words the runtime uses for the same failure, never with the key in it. */
function failureOf(err: unknown, cred: ResolvedCredential): { code: string; message: string } {
  const secrets = cred.data.apiKey ? [cred.data.apiKey] : []; // a local server's credential may have no key
  if (err instanceof PaiError) return { code: err.code, message: scrub(err.message, secrets) };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'LLM_ERROR', message: scrub(message, secrets) };
}
