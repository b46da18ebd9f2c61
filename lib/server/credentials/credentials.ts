/**
 * The credentials vault: typed secrets per workspace, encrypted at rest (AES-256-GCM under the master key), shown
 * only masked, bound to the hosts they may be sent to. `SECRET_<NAME>` environment variables appear as read-only
 * "environment credentials". Values are decrypted only by `resolve()`, which the node runtime calls when sending.
 */
import type { z } from 'zod';
import { PaiError } from '@/engine/errors';
import { catalogueProvider, providerOfHost } from '@/engine/llm/catalogue';
import type { CredentialResolver, ResolvedCredential } from '@/engine/credentials/types';
import type { CredentialRecord } from '@/engine/store/credentials';
import type { Stores } from '@/engine/store/app/stores';
import { parseInput } from '@/lib/http/body';
import { audit, type AuditActor } from '../auth/audit';
import { newId } from '../auth/secrets';
import { envSecrets } from './env-secrets';
import { decrypt, encrypt } from './cipher';
import { createCredentialSchema, credentialDataSchemas, mask, maskedOf, type CredentialType } from './credential-types';

export interface CredentialView {
  id: string;
  name: string;
  type: CredentialType | 'env';
  masked: string;
  hosts: string[];
  readOnly: boolean;
  createdAt: string | null;
  /** An OpenAI-compatible credential's catalogue provider, found by its host (`openai_compatible`: none listed). */
  provider?: string;
}

const aadOf = (r: { id: string; workspaceId: string }) => `${r.workspaceId}/${r.id}`;

const view = (r: CredentialRecord): CredentialView => ({
  id: r.id,
  name: r.name,
  type: r.type as CredentialType,
  masked: r.masked,
  hosts: r.hosts,
  readOnly: false,
  createdAt: r.createdAt.toISOString(),
  ...(r.type === 'openai' && r.hosts[0] ? { provider: providerOfHost(r.hosts[0]).id } : {}),
});

export class CredentialVault implements CredentialResolver {
  /** `workspaceOfRun`: the store's lookup of a run's workspace (RunStore.workspaceOfRun). */
  constructor(
    private readonly stores: Pick<Stores, 'credentials' | 'audit'>,
    private readonly key: Buffer,
    private readonly workspaceOfRun: (runId: string) => Promise<string | null>,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async create(workspaceId: string, body: unknown, actor: AuditActor, ip?: string): Promise<CredentialView> {
    const input = parseInput(createCredentialSchema, body);
    const type = input.type as CredentialType;
    const dataSchema: z.ZodType = credentialDataSchemas[type];
    const data = parseInput(dataSchema, input.data, 'data') as Record<string, string>;
    if (type === 'openai') {
      data.baseUrl = baseUrlOf(data);
      assertKeyIfNeeded(data);
    }
    if (type === 'openai' && input.hosts)
      throw new PaiError(
        'VALIDATION_ERROR',
        'an OpenAI-compatible credential is sent only to the host of its baseUrl: leave hosts out',
        { path: 'hosts' },
      );
    const hosts = type === 'openai' ? [new URL(data.baseUrl).host.toLowerCase()] : [...new Set(input.hosts ?? [])];
    if (type !== 'openai' && hosts.length === 0)
      throw new PaiError('VALIDATION_ERROR', 'name at least one host this credential may be sent to', {
        path: 'hosts',
      });
    const id = newId('cred');
    const row = await this.stores.credentials.create({
      id,
      workspaceId,
      name: input.name,
      type,
      ciphertext: encrypt(this.key, JSON.stringify(data), aadOf({ id, workspaceId })),
      masked: maskedOf(type, data),
      hosts,
      createdBy: actor.id ?? null,
    });
    if (!row)
      throw new PaiError('CREDENTIAL_NAME_TAKEN', `a credential named "${input.name}" exists already`, {
        path: 'name',
      });
    await audit(this.stores.audit, {
      action: 'credential.created',
      actor,
      workspaceId,
      target: id,
      ip,
      data: { type },
    });
    return view(row);
  }

  /** The workspace's credentials (masked) and the environment's read-only ones. */
  async list(workspaceId: string): Promise<CredentialView[]> {
    const rows = await this.stores.credentials.list(workspaceId);
    return [...rows.map(view), ...this.environmentCredentials()];
  }

  async get(workspaceId: string, id: string): Promise<CredentialView> {
    const env = this.environmentCredentials().find((c) => c.id === id);
    if (env) return env;
    const row = await this.stores.credentials.get(workspaceId, id);
    if (!row) throw notFound(id);
    return view(row);
  }

  async delete(workspaceId: string, id: string, actor: AuditActor, ip?: string): Promise<void> {
    if (id.startsWith('env:'))
      throw new PaiError('CREDENTIAL_READ_ONLY', 'environment credentials are changed in the environment');
    if (!(await this.stores.credentials.delete(workspaceId, id))) throw notFound(id);
    await audit(this.stores.audit, { action: 'credential.deleted', actor, workspaceId, target: id, ip });
  }

  async resolve(runId: string, credentialId: string): Promise<ResolvedCredential> {
    const workspaceId = await this.workspaceOfRun(runId);
    if (!workspaceId) throw notFound(credentialId, 'config.credentialId');
    return this.resolveInWorkspace(workspaceId, credentialId, 'config.credentialId');
  }

  /** The decrypted credential `credentialId` of `workspaceId` (for the runtime and knowledge-base embedders only). */
  async resolveInWorkspace(
    workspaceId: string,
    credentialId: string,
    path = 'credentialId',
  ): Promise<ResolvedCredential> {
    const row = await this.stores.credentials.get(workspaceId, credentialId);
    if (!row) throw notFound(credentialId, path);
    const data = JSON.parse(decrypt(this.key, row.ciphertext, aadOf(row))) as Record<string, string>;
    return { id: row.id, name: row.name, type: row.type as CredentialType, hosts: row.hosts, data };
  }

  /**
   * Encrypts another record's secret (a workflow's callback signing secret, a trigger's key) under the master key,
   * bound to `aad` so the ciphertext cannot be moved to another record; `unseal` reverses it (else
   * CREDENTIAL_UNREADABLE).
   */
  seal(plaintext: string, aad: string): string {
    return encrypt(this.key, plaintext, aad);
  }

  unseal(stored: string, aad: string): string {
    return decrypt(this.key, stored, aad);
  }

  private environmentCredentials(): CredentialView[] {
    return Object.entries(this.env)
      .filter(([k, v]) => /^SECRET_[A-Za-z0-9_]+$/.test(k) && !k.endsWith('_HOSTS') && v)
      .map(([k, v]) => {
        const name = k.slice('SECRET_'.length);
        const hosts = envSecrets(this.env).hosts?.(name) ?? [];
        return {
          id: `env:${name}`,
          name,
          type: 'env' as const,
          masked: mask(v!),
          hosts,
          readOnly: true,
          createdAt: null,
        };
      });
  }
}

/** An OpenAI-compatible credential's base URL: as given, else its catalogue provider's (default OpenAI's). */
function baseUrlOf(data: Record<string, string>): string {
  if (data.baseUrl) return data.baseUrl;
  const provider = catalogueProvider(data.provider ?? 'openai');
  if (provider?.baseUrl) return provider.baseUrl;
  throw new PaiError('VALIDATION_ERROR', `give the base URL of your ${provider?.name ?? 'provider'}'s API`, {
    path: 'data.baseUrl',
  });
}

/**
 * A provider that needs a key gets one: the catalogue's entry for the base URL's host says so (`needsKey`). A local
 * server (Ollama) or any other OpenAI-compatible one (vLLM, LM Studio) may run without a key.
 */
function assertKeyIfNeeded(data: Record<string, string>): void {
  if (data.apiKey) return;
  const provider = providerOfHost(new URL(data.baseUrl).host.toLowerCase());
  if (provider.needsKey)
    throw new PaiError('VALIDATION_ERROR', `${provider.name} needs an API key`, { path: 'data.apiKey' });
}

function notFound(id: string, path?: string): PaiError {
  return new PaiError('CREDENTIAL_NOT_FOUND', `credential ${id} not found`, { ...(path ? { path } : {}) });
}
