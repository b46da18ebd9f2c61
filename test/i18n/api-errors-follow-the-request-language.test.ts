// Guarantees: every error code the server can answer has a plain explanation in English and Simplified Chinese (a new
// code without one fails here); an API error answers in the request's language — the `paiflow-locale` cookie, else
// Accept-Language, or `?lang=` — with the same code and status, `content-language` set, and in Chinese the specific
// English message kept as `detail` when it names something; in English the message is exactly what it always was; a
// zod validation error in Chinese speaks zod's own Chinese and keeps its path, also in the per-issue `errors[]`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as chatCompletions } from '@/app/api/v1/chat/completions/route';
import { POST as runPublished } from '@/app/api/v1/workflows/[slug]/run/route';
import { GET as getWf } from '@/app/api/workflows/[id]/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import enErrors from '@/messages/en/errors.json';
import zhErrors from '@/messages/zh-CN/errors.json';
import { ownerToken } from '../support/owner';
import { call, simpleGraph, useFreshDataDir, type Answer } from '../api/api-helpers';

const EN: Record<string, string> = enErrors;
const ZH: Record<string, string> = zhErrors;
const CJK = /[\u3400-\u9fff]/;
const ROOT = path.resolve(__dirname, '../..');

/**
 * The error codes written in the source: `new PaiError('CODE'`, `httpError('CODE'`, the webhook's `refuse('CODE'`,
 * the config checks' `problem('CODE'` / `fail('CODE'`, the chat facade's `errorJson(422, 'CODE'` and `code: 'CODE'`.
 */
function codesInSource(): Map<string, string> {
  const re =
    /(?:new PaiError\(\s*|\b(?:httpError|refuse|problem|fail)\(\s*|errorJson\(\s*\d+\s*,\s*|\bcode:\s*)'([A-Z][A-Z0-9_]+)'/g;
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p);
      } else if (/\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        for (const m of readFileSync(p, 'utf8').matchAll(re))
          if (!found.has(m[1])) found.set(m[1], path.relative(ROOT, p));
      }
    }
  };
  for (const dir of ['lib', 'engine', 'app']) walk(path.join(ROOT, dir));
  return found;
}

describe('every error code has an explanation in both languages', () => {
  const codes = codesInSource();

  it('finds the codes in the source', () => {
    for (const code of ['INTERNAL', 'UNAUTHENTICATED', 'FORBIDDEN', 'VALIDATION_ERROR', 'WORKFLOW_NOT_FOUND'])
      expect(codes.has(code), code).toBe(true);
  });

  it('explains each code in English and in Chinese', () => {
    const missing = [...codes]
      .filter(([code]) => !EN[code]?.trim() || !ZH[code]?.trim() || !CJK.test(ZH[code]))
      .map(([code, file]) => `${code} (${file})`);
    expect(missing, 'error codes without an English and a Chinese explanation in messages/*/errors.json').toEqual([]);
  });

  it('explains no code the server no longer has', () => {
    expect(Object.keys(EN).filter((code) => !codes.has(code))).toEqual([]);
    expect(Object.keys(ZH).filter((code) => !codes.has(code))).toEqual([]);
  });
});

describe('API errors answer in the language of the request', () => {
  let auth: string;
  const missing = 'wf_doesnotexist';
  const auth_ = () => ({ authorization: auth });
  const getMissing = (headers: Record<string, string>, query = '') =>
    call(getWf, 'GET', `/api/workflows/${missing}${query}`, {
      params: { id: missing },
      headers: { ...auth_(), ...headers },
    });

  useFreshDataDir('paiflow-i18n-errors-');
  beforeAll(async () => {
    auth = `Bearer ${await ownerToken(await getApp())}`;
  });
  afterAll(async () => {
    await (await getApp()).close();
  });

  const expectChinese = (a: Answer, status: number, code: string) => {
    expect({ status: a.status, code: a.body?.error?.code }, a.text).toEqual({ status, code });
    expect(a.headers.get('content-language')).toBe('zh-CN');
    expect(a.body.error.message).toBe(ZH[code]);
    return a.body.error as { message: string; detail?: string; path?: string; [k: string]: unknown };
  };

  it('in English (no language asked, or Accept-Language: en) the message is unchanged', async () => {
    const plain = await getMissing({});
    expect(plain.status).toBe(404);
    expect(plain.body.error).toEqual({ code: 'WORKFLOW_NOT_FOUND', message: `workflow ${missing} not found` });
    const en = await getMissing({ 'accept-language': 'en-US,en;q=0.9' });
    expect(en.body).toEqual(plain.body);
    expect(en.headers.get('content-language')).toBe('en');
  });

  it('Accept-Language: zh-CN → the same code in Chinese, the English message kept as detail', async () => {
    const en = await getMissing({});
    const zh = expectChinese(
      await getMissing({ 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' }),
      404,
      'WORKFLOW_NOT_FOUND',
    );
    expect(zh.detail).toBe(en.body.error.message);
  });

  it('the language cookie wins over Accept-Language, and ?lang= works too', async () => {
    expectChinese(
      await getMissing({ cookie: 'other=1; paiflow-locale=zh-CN', 'accept-language': 'en' }),
      404,
      'WORKFLOW_NOT_FOUND',
    );
    const en = await getMissing({ cookie: 'paiflow-locale=en', 'accept-language': 'zh-CN' });
    expect(en.body.error.message).toBe(`workflow ${missing} not found`);
    expectChinese(await getMissing({}, '?lang=zh-CN'), 404, 'WORKFLOW_NOT_FOUND');
  });

  it('a zod validation error in Chinese keeps its path, in the error and in each issue', async () => {
    const body = { name: 42, graph: simpleGraph() };
    const en = await call(createWf, 'POST', '/api/workflows', { body, headers: auth_() });
    const zh = await call(createWf, 'POST', '/api/workflows', {
      body,
      headers: { ...auth_(), 'accept-language': 'zh' },
    });
    expect(en.status).toBe(400);
    expect(en.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      path: 'name',
      message: expect.stringMatching(/^Invalid input/),
    });
    expect(zh.status).toBe(400);
    expect(zh.headers.get('content-language')).toBe('zh-CN');
    expect(zh.body.error).toMatchObject({ code: 'VALIDATION_ERROR', path: 'name' });
    // zod's own Simplified Chinese locale: "无效输入：期望 string，实际接收 数字"
    expect(zh.body.error.message).toMatch(/^无效输入：期望 string/);
    expect(zh.body.error.errors.map((e: { path: string }) => e.path)).toEqual(
      en.body.error.errors.map((e: { path: string }) => e.path),
    );
    for (const issue of zh.body.error.errors) expect(issue.message).toMatch(CJK);
  });

  it('a custom validation message: the Chinese explanation with the path, the English message as detail', async () => {
    const body = { name: '  ', graph: simpleGraph() };
    const en = await call(createWf, 'POST', '/api/workflows', { body, headers: auth_() });
    const zh = await call(createWf, 'POST', '/api/workflows', {
      body,
      headers: { ...auth_(), 'accept-language': 'zh-CN' },
    });
    expect(en.body.error).toMatchObject({ code: 'VALIDATION_ERROR', path: 'name' });
    expect(zh.body.error).toMatchObject({ code: 'VALIDATION_ERROR', path: 'name', detail: en.body.error.message });
    expect(zh.body.error.message).toBe(`${ZH.VALIDATION_ERROR}（字段：name）`);
  });

  it('the auth guard answers 401 in Chinese', async () => {
    const a = await call(listWf, 'GET', '/api/workflows', { anonymous: true, headers: { 'accept-language': 'zh-CN' } });
    expectChinese(a, 401, 'UNAUTHENTICATED');
  });

  it('the published API answers in Chinese and keeps its headers', async () => {
    const slug = 'no-such-slug';
    const a = await call(runPublished, 'POST', `/api/v1/workflows/${slug}/run`, {
      params: { slug },
      body: { inputs: {} },
      headers: { 'accept-language': 'zh-CN' },
    });
    expectChinese(a, 401, 'UNAUTHORIZED');
    expect(a.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('the chat-completions facade answers in Chinese and keeps OpenAI’s type and param', async () => {
    const a = await call(chatCompletions, 'POST', '/api/v1/chat/completions', {
      body: { model: 'no-such-slug', messages: [{ role: 'user', content: 'hi' }] },
      headers: { 'accept-language': 'zh-CN', authorization: `Bearer pf_${'x'.repeat(43)}` },
    });
    const error = expectChinese(a, 401, 'UNAUTHORIZED');
    expect(error).toMatchObject({ type: 'authentication_error', param: null });
  });
});
