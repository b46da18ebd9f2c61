/**
 * Who calls a management route, from one place: a session cookie or `Authorization: Bearer pat_…`, and in which
 * workspace (`X-Workspace-Id`, else the token's or the session's workspace, else the user's first). A workspace the
 * user does not belong to is "not found".
 */
import { PaiError } from '@/engine/errors';
import type { Accounts, UserView } from './accounts';
import { PAT_PREFIX } from './accounts';
import { readCookie, SESSION_COOKIE } from './cookies';
import type { Role } from './policy';
import { checkSameOrigin } from './request-info';

export interface Caller {
  user: UserView;
  workspaceId: string;
  role: Role;
  via: 'session' | 'token';
  sessionId?: string;
  tokenId?: string;
}

export function unauthenticated(message = 'sign in first (session cookie or Authorization: Bearer pat_…)') {
  return new PaiError('UNAUTHENTICATED', message);
}

/** The signed-in user of a request, or null; no workspace is resolved (auth-state, logout, token routes). */
export async function identify(accounts: Accounts, req: Request) {
  const auth = req.headers.get('authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth.trim());
    if (!m || !m[1].startsWith(PAT_PREFIX)) throw unauthenticated('the Authorization header must be Bearer pat_…');
    const t = await accounts.resolveToken(m[1]);
    if (!t) throw unauthenticated('the token is unknown or revoked');
    return { via: 'token' as const, user: t.user, tokenId: t.tokenId, workspaceId: t.workspaceId };
  }
  const cookie = readCookie(req, SESSION_COOKIE);
  if (!cookie) return null;
  const s = await accounts.resolveSession(cookie);
  if (!s) return null;
  checkSameOrigin(req);
  return { via: 'session' as const, user: s.user, sessionId: s.sessionId, workspaceId: s.workspaceId };
}

export async function authenticate(accounts: Accounts, req: Request, workspaceId?: string): Promise<Caller> {
  const who = await identify(accounts, req);
  if (!who) throw unauthenticated();
  const asked = workspaceId || req.headers.get('x-workspace-id')?.trim() || who.workspaceId;
  if (asked) {
    const role = await accounts.roleIn(who.user.id, asked);
    if (!role) throw new PaiError('WORKSPACE_NOT_FOUND', `workspace ${asked} not found`);
    return { ...who, workspaceId: asked, role };
  }
  const [first] = await accounts.workspacesOf(who.user.id);
  if (!first) throw new PaiError('NO_WORKSPACE', 'you are not a member of any workspace');
  return { ...who, workspaceId: first.id, role: first.role };
}
