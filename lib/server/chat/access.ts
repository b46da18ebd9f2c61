/**
 * Who may talk to a chat app: the holder of one of the workflow's API keys (`Authorization: Bearer pf_…`, with the
 * published API's checks and rate limit) or a visitor of its page with a chat session (`Bearer cs_…`, session.ts),
 * rate-limited per session. Each is the owner of the conversations it starts: `key:<key id>` or `session:<id>`.
 */
import { PaiError } from '@/engine/errors';
import type { ChatAppSettings } from '@/engine/store/chat';
import type { WorkflowRecord } from '@/engine/store/types';
import { httpError } from '@/lib/http/errors';
import type { App } from '../app-types';
import { clientIp } from '../auth/request-info';
import { authorizeForSlug } from '../publishing/api-keys';
import { corsOf } from '../publishing/v1-http';
import { v1Settings } from '../publishing/v1-settings';
import { SESSION_PREFIX, verifySession } from './session';
// The page proxy learns from it who may frame a chat page.
import './embed-origins';

export type ChatWorkflow = WorkflowRecord & { chat: ChatAppSettings; slug: string };

/** The workflow whose chat app answers at `slug`: published, with the app on; else 404. */
export async function chatWorkflow(app: App, req: Request | null, slug: string): Promise<ChatWorkflow> {
  const wf = await app.store.getWorkflowBySlug(slug);
  if (wf && req) corsOf(req, wf);
  if (!wf || !wf.currentVersionId) throw new PaiError('NOT_PUBLISHED', `no published workflow "${slug}"`);
  const secrets = wf.chat?.enabled ? await app.stores.chat.secretsOf(wf.id) : null;
  if (!wf.chat?.enabled || !secrets) throw new PaiError('CHAT_DISABLED', `the workflow "${slug}" has no chat app`);
  return { ...wf, chat: { ...wf.chat, ...secrets } } as ChatWorkflow;
}

/** Spends one token of the published API's rate limit for `id`, or 429 with Retry-After. */
export function takeOrRefuse(app: App, id: string): void {
  const t = v1Settings(app).limiter.take(id);
  if (!t.ok)
    throw httpError('RATE_LIMITED', `too many requests; retry in ${t.retryAfterSec} s`, 429, {
      'retry-after': String(t.retryAfterSec),
    });
}

const bearer = (req: Request) => /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.get('authorization') ?? '')?.[1];

/** The chat workflow and the caller's owner id, or 401 / 403 / 404 / 429. */
export async function authorizeChat(
  app: App,
  req: Request,
  slug: string,
): Promise<{ workflow: ChatWorkflow; owner: string; apiKeyId: string | null }> {
  const token = bearer(req);
  if (token?.startsWith(SESSION_PREFIX)) {
    const wf = await chatWorkflow(app, req, slug);
    const sid = verifySession(wf.id, wf.chat, token);
    if (!sid)
      throw httpError('CHAT_SESSION_INVALID', 'the chat session expired or is not valid; reload the page', 401, {
        'www-authenticate': 'Bearer realm="paiflow-chat", error="invalid_token"',
      });
    // Per session and per address: a visitor can open sessions at will, so the session alone would not limit them.
    takeOrRefuse(app, `chat:${sid}`);
    takeOrRefuse(app, `chat-ip:${clientIp(req)}`);
    return { workflow: wf, owner: `session:${sid}`, apiKeyId: null };
  }
  if (!token) {
    const wf = await chatWorkflow(app, req, slug);
    if (wf.chat.access === 'code')
      throw httpError('CHAT_ACCESS_CODE_REQUIRED', 'this chat needs its access code, or an API key', 401, {
        'www-authenticate': 'Bearer realm="paiflow-chat"',
      });
  }
  // An API key: the published endpoint's own checks (401, 429, 404, 403), then the chat app must be on.
  const { key } = await authorizeForSlug(app, req, slug);
  const wf = await chatWorkflow(app, req, slug);
  return { workflow: wf, owner: `key:${key.id}`, apiKeyId: key.id };
}
