/** Typed calls to the account API: sign-in state, sessions, workspaces, members, invitations, tokens, credentials. */
import { call } from './client';

export type Role = 'owner' | 'admin' | 'editor' | 'viewer';
export const ROLES: Role[] = ['owner', 'admin', 'editor', 'viewer'];

export interface UserView {
  id: string;
  email: string;
  name: string;
}
export interface WorkspaceView {
  id: string;
  name: string;
  role: Role;
}
/** Single sign-on, when the server has it (OIDC_ISSUER): the button's name and where it starts. */
export interface SsoButton {
  name: string;
  startUrl: string;
}
export interface AuthState {
  setupRequired: boolean;
  authenticated: boolean;
  /** Only signed out, and only when single sign-on is configured. */
  sso?: SsoButton;
  user?: UserView;
  workspaces?: WorkspaceView[];
  workspaceId?: string | null;
  role?: Role | null;
}
export interface Member {
  userId: string;
  id: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}
export interface Invitation {
  token: string;
  url: string;
  email: string;
  role: Role;
  expiresAt: string;
}
export interface TokenView {
  id: string;
  name: string;
  prefix: string;
  workspaceId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  actor: { id: string | null; email: string | null } | null;
  target: string | null;
  ip: string | null;
  data: unknown;
}
export type CredentialType = 'openai' | 'http_header' | 'bearer' | 'basic' | 'env';
export interface CredentialView {
  id: string;
  name: string;
  type: CredentialType;
  masked: string;
  hosts: string[];
  readOnly: boolean;
  createdAt: string;
  /** An OpenAI-compatible credential's catalogue provider (found by its host). */
  provider?: string;
}

export type ModelKind = 'chat' | 'embedding' | 'rerank' | 'tts' | 'image';
export interface ProviderView {
  id: string;
  name: string;
  names: { en: string; zh: string };
  baseUrl: string | null;
  docsUrl: string;
  kinds: ModelKind[];
  listsModels: boolean;
  /** False for a server that runs without a key (Ollama, vLLM, LM Studio …): the key field may stay empty. */
  needsKey?: boolean;
  models: Array<{ id: string; kind: ModelKind; contextWindow?: number; inputUsdPerM?: number; outputUsdPerM?: number }>;
}
export interface CredentialTestResult {
  ok: boolean;
  latencyMs: number;
  models?: Array<{ id: string; kind: ModelKind }>;
  model?: string;
  error?: { code: string; message: string };
}

/** Roles that may change workflows, and roles that may manage members, credentials and API keys. */
export const canEdit = (role: Role | null | undefined) => role === 'owner' || role === 'admin' || role === 'editor';
export const canAdmin = (role: Role | null | undefined) => role === 'owner' || role === 'admin';

const ws = (id: string) => `/api/workspaces/${encodeURIComponent(id)}`;

export const authApi = {
  state: () => call<AuthState>('GET', '/api/auth/state'),
  setup: (body: { email: string; password: string; name: string }) =>
    call<{ user: UserView }>('POST', '/api/auth/setup', body),
  login: (body: { email: string; password: string }) => call<{ user: UserView }>('POST', '/api/auth/login', body),
  logout: () => call<void>('POST', '/api/auth/logout'),
  acceptInvite: (body: { token: string; name: string; password: string }) =>
    call<{ user: UserView }>('POST', '/api/auth/accept-invite', body),
  switchWorkspace: (workspaceId: string) => call<unknown>('POST', '/api/auth/workspace', { workspaceId }),
  /** 204; every other session of the user is signed out. A wrong current password is a 400 at `currentPassword`. */
  changePassword: (body: { currentPassword: string; newPassword: string }) =>
    call<void>('POST', '/api/auth/password', body),
  listTokens: () => call<TokenView[]>('GET', '/api/auth/tokens'),
  /** `workspaceId` omitted: the token works in the user's first workspace. */
  createToken: (name: string, workspaceId?: string) =>
    call<{ id: string; token: string; prefix: string; name: string }>('POST', '/api/auth/tokens', {
      name,
      ...(workspaceId ? { workspaceId } : {}),
    }),
  /** The current workspace's audit log, newest first (owners and admins). */
  listAudit: (limit?: number) => call<AuditEntry[]>('GET', `/api/audit${limit ? `?limit=${limit}` : ''}`),
  revokeToken: (id: string) => call<void>('DELETE', `/api/auth/tokens/${encodeURIComponent(id)}`),
  listMembers: (workspaceId: string) => call<Member[]>('GET', `${ws(workspaceId)}/members`),
  setMemberRole: (workspaceId: string, userId: string, role: Role) =>
    call<unknown>('PATCH', `${ws(workspaceId)}/members/${encodeURIComponent(userId)}`, { role }),
  invite: (workspaceId: string, email: string, role: Role) =>
    call<Invitation>('POST', `${ws(workspaceId)}/invitations`, { email, role }),
  listCredentials: () => call<CredentialView[]>('GET', '/api/credentials'),
  /** `data`: the type's fields (strings), and an OpenAI-compatible one's `prices` table. */
  createCredential: (body: { name: string; type: CredentialType; data: Record<string, unknown>; hosts?: string[] }) =>
    call<CredentialView>('POST', '/api/credentials', body),
  deleteCredential: (id: string) => call<void>('DELETE', `/api/credentials/${encodeURIComponent(id)}`),
  listProviders: () => call<ProviderView[]>('GET', '/api/providers'),
  /** Does the key work? `{ ok: false, error }` says why when not. */
  testCredential: (id: string, model?: string) =>
    call<CredentialTestResult>('POST', `/api/credentials/${encodeURIComponent(id)}/test`, model ? { model } : {}),
  credentialModels: (id: string, kind?: ModelKind) =>
    call<{ models: Array<{ id: string; kind: ModelKind }>; source: 'provider' | 'catalogue' }>(
      'GET',
      `/api/credentials/${encodeURIComponent(id)}/models${kind ? `?kind=${kind}` : ''}`,
    ),
};
