/**
 * A chat app's settings: what PATCH /api/workflows/:id/publish takes under `chat`, how they are stored (the access
 * code only as its sha256, with a random secret that signs the page's sessions: a new code gets a new secret, which
 * ends every session the old code opened) and how the Publish panel sees them (never the code or the secret).
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import type { ChatAppPublicSettings, ChatAppSecrets, ChatAppSettings } from '@/engine/store/chat';
import type { WorkflowRecord } from '@/engine/store/types';
import { originListSchema } from './origins';

export const chatSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  title: z.string().trim().max(120, 'a title has at most 120 characters').optional(),
  welcome: z.string().trim().max(2000, 'a welcome message has at most 2000 characters').optional(),
  suggestions: z
    .array(z.string().trim().min(1, 'a suggestion is not empty').max(200, 'a suggestion has at most 200 characters'))
    .max(8, 'at most 8 suggestions')
    .optional(),
  access: z.enum(['public', 'code']),
  code: z
    .string()
    .min(4, 'an access code has at least 4 characters')
    .max(128, 'an access code has at most 128 characters')
    .optional(),
  /** Sites that may frame the chat page (the embed): `["*"]` (the default) any, `[]` none but PaiFlow itself. */
  embedOrigins: originListSchema.optional(),
  /** Tokens of earlier turns sent to the model with each message; null: the server's CHAT_HISTORY_MAX_TOKENS. */
  historyMaxTokens: z
    .number()
    .int('historyMaxTokens is a whole number')
    .min(0, 'historyMaxTokens is 0 (no history) or more')
    .max(1_000_000, 'historyMaxTokens is at most 1000000')
    .nullable()
    .optional(),
});
export type ChatSettingsInput = z.infer<typeof chatSettingsSchema>;

export const codeHash = (code: string) => createHash('sha256').update(code, 'utf8').digest('hex');

/** The settings to store for `input`, given what was stored before (the code is kept when none is given). */
export function toStoredChat(
  prev: (ChatAppPublicSettings & Partial<ChatAppSecrets>) | null | undefined,
  input: ChatSettingsInput,
): ChatAppSettings {
  let hash: string | null = null;
  if (input.access === 'code') {
    hash = input.code !== undefined ? codeHash(input.code) : (prev?.codeHash ?? null);
    if (!hash)
      throw new PaiError('CHAT_CODE_MISSING', 'access "code" needs an access code: give chat.code', {
        path: 'chat.code',
      });
  }
  const sameAccess = prev && prev.access === input.access && prev.codeHash === hash;
  return {
    enabled: input.enabled,
    title: input.title !== undefined ? input.title || null : (prev?.title ?? null),
    welcome: input.welcome !== undefined ? input.welcome || null : (prev?.welcome ?? null),
    suggestions: input.suggestions ?? prev?.suggestions ?? [],
    access: input.access,
    embedOrigins: input.embedOrigins ?? prev?.embedOrigins ?? ['*'],
    historyMaxTokens: input.historyMaxTokens !== undefined ? input.historyMaxTokens : (prev?.historyMaxTokens ?? null),
    codeHash: hash,
    sessionSecret: sameAccess && prev.sessionSecret ? prev.sessionSecret : randomBytes(32).toString('base64url'),
  };
}

export const chatPagePath = (slug: string) => `/chat/${slug}`;
export const embedScriptPath = (slug: string) => `/chat/${slug}/embed.js`;

/** The Publish panel's view of the chat app: its settings, page URL and embed snippet; never the code. */
export function presentChat(origin: string, wf: Pick<WorkflowRecord, 'slug' | 'chat'>) {
  const c = wf.chat;
  return {
    enabled: c?.enabled === true,
    title: c?.title ?? null,
    welcome: c?.welcome ?? null,
    suggestions: c?.suggestions ?? [],
    access: c?.access ?? 'public',
    /** Access "code" always has one (it cannot be set without). */
    hasCode: c?.access === 'code',
    embedOrigins: c?.embedOrigins ?? ['*'],
    historyMaxTokens: c?.historyMaxTokens ?? null,
    url: wf.slug ? `${origin}${chatPagePath(wf.slug)}` : null,
    embedSnippet: wf.slug ? `<script src="${origin}${embedScriptPath(wf.slug)}" async></script>` : null,
  };
}

/** What the chat page and its visitors may know of the app (no code, no secret). */
export function publicChatConfig(wf: Pick<WorkflowRecord, 'name' | 'slug' | 'chat'>) {
  const c = wf.chat!;
  return {
    slug: wf.slug,
    title: c.title || wf.name,
    welcome: c.welcome,
    suggestions: c.suggestions,
    access: c.access,
  };
}
