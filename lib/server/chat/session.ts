/**
 * The chat page's sessions: a visitor of /chat/:slug gets a token (`cs_<payload>.<signature>`) that the API accepts
 * instead of an API key. It names the workflow and a random session id (the owner of the visitor's conversations),
 * expires after SESSION_TTL_MS and is signed (HMAC-SHA256) with the app's `sessionSecret`, so nothing is stored per
 * session and changing the access code ends every session. A token rides in the Authorization header, not a cookie:
 * the page also runs in an iframe on other sites (the embed), where third-party cookies are blocked.
 *
 * Access "code": the code is compared by its sha256 in constant time; wrong codes are counted per client address
 * and chat (CHAT_CODE_MAX_FAILURES in CHAT_CODE_WINDOW_MS), after which the address waits (429 TOO_MANY_ATTEMPTS).
 *
 * Nothing is stored per session, but each owns conversations: an address may open CHAT_SESSIONS_PER_VISITOR_PER_HOUR
 * sessions of a chat app an hour (then 429 TOO_MANY_CHAT_SESSIONS), so reloading with a fresh browser cannot multiply
 * the conversations a visitor keeps (turns.ts bounds those per session and per app).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PaiError } from '@/engine/errors';
import type { ChatAppSettings } from '@/engine/store/chat';
import { httpError } from '@/lib/http/errors';
import type { App } from '../app-types';
import { clientIp } from '../auth/request-info';
import { FailureWindow } from '../publishing/failure-window';
import { codeHash } from '../publishing/chat-settings';
import { chatLimits } from './limits';

export const SESSION_PREFIX = 'cs_';
const SESSION_TTL_MS = 30 * 24 * 3600_000;
const CHAT_CODE_MAX_FAILURES = 10;
const CHAT_CODE_WINDOW_MS = 15 * 60_000;

const failuresPerApp = new WeakMap<App, FailureWindow>();
const codeFailures = (app: App) => {
  let f = failuresPerApp.get(app);
  if (!f) failuresPerApp.set(app, (f = new FailureWindow(CHAT_CODE_MAX_FAILURES, CHAT_CODE_WINDOW_MS)));
  return f;
};

const SESSION_WINDOW_MS = 3600_000;
const sessionsPerApp = new WeakMap<App, FailureWindow>();
/** Sessions opened per address and chat in the last hour (a FailureWindow counts any event, not only failures). */
function openedSessions(app: App, max: number): FailureWindow {
  let w = sessionsPerApp.get(app);
  if (!w || w.max !== max) sessionsPerApp.set(app, (w = new FailureWindow(max, SESSION_WINDOW_MS)));
  return w;
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

export function issueSession(workflowId: string, chat: ChatAppSettings, now = Date.now()) {
  const expiresAt = now + SESSION_TTL_MS;
  const payload = Buffer.from(
    JSON.stringify({ w: workflowId, s: randomBytes(12).toString('base64url'), e: expiresAt }),
  ).toString('base64url');
  return { token: `${SESSION_PREFIX}${payload}.${sign(chat.sessionSecret, payload)}`, expiresAt };
}

/** The session id a token carries for this workflow's chat, or null when it is forged, expired or another's. */
export function verifySession(workflowId: string, chat: ChatAppSettings, token: string, now = Date.now()) {
  if (!token.startsWith(SESSION_PREFIX)) return null;
  const [payload, sig] = token.slice(SESSION_PREFIX.length).split('.');
  if (!payload || !sig) return null;
  const want = Buffer.from(sign(chat.sessionSecret, payload));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  try {
    const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      w?: unknown;
      s?: unknown;
      e?: unknown;
    };
    if (p.w !== workflowId || typeof p.s !== 'string' || typeof p.e !== 'number' || p.e <= now) return null;
    return p.s;
  } catch {
    return null;
  }
}

/**
 * Opens a session for the page: at once for a public chat; for access "code" only with the right code (401 without
 * one, 403 for a wrong one, 429 after too many wrong ones from this address).
 */
export function openSession(
  app: App,
  req: Request,
  workflowId: string,
  slug: string,
  chat: ChatAppSettings,
  code?: string,
) {
  if (chat.access === 'code') {
    const who = `${clientIp(req)} ${slug}`;
    const failures = codeFailures(app);
    const retryAfter = failures.retryAfterSec(who);
    if (retryAfter > 0)
      throw httpError('TOO_MANY_ATTEMPTS', `too many wrong access codes; retry in ${retryAfter} s`, 429, {
        'retry-after': String(retryAfter),
      });
    if (code === undefined || code === '')
      throw new PaiError('CHAT_ACCESS_CODE_REQUIRED', 'this chat needs its access code', { path: 'code' });
    const want = Buffer.from(chat.codeHash ?? '', 'hex');
    const got = Buffer.from(codeHash(code), 'hex');
    if (want.length !== got.length || !timingSafeEqual(want, got)) {
      failures.fail(who);
      throw new PaiError('CHAT_ACCESS_CODE_INVALID', 'the access code is wrong', { path: 'code' });
    }
  }
  const opened = openedSessions(app, chatLimits().sessionsPerVisitorPerHour);
  const visitor = `${clientIp(req)} ${slug}`;
  const wait = opened.retryAfterSec(visitor);
  if (wait > 0)
    throw httpError(
      'TOO_MANY_CHAT_SESSIONS',
      `this address opened ${opened.max} chat sessions in the last hour (CHAT_SESSIONS_PER_VISITOR_PER_HOUR); ` +
        `retry in ${wait} s`,
      429,
      { 'retry-after': String(wait) },
    );
  opened.fail(visitor);
  return issueSession(workflowId, chat);
}
