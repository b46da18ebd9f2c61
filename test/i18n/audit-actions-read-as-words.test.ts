// Guarantees: every action the audit log records (found in the server code, so a new one cannot be forgotten) has a
// label in English and Simplified Chinese, so the audit page shows words, not codes like "member.role_changed".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@/messages';

const CODE = /'([a-z_]+\.[a-z_]+)'/g;

/** Action codes passed to audit({ action }) or auditAction(prisma, caller, req, action, …) under lib/ and app/. */
function recordedActions(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        const text = readFileSync(full, 'utf8');
        for (const m of text.matchAll(/\baction:\s*([^,\n}]+)/g)) for (const c of m[1].matchAll(CODE)) found.add(c[1]);
        for (const m of text.matchAll(/\bauditAction\(([^;]*?)\)/g)) {
          const code = [...m[1].matchAll(CODE)][0];
          if (code) found.add(code[1]);
        }
      }
    }
  };
  for (const dir of ['lib', 'app']) walk(path.resolve(dir));
  return [...found].sort();
}

const label = (locale: 'en' | 'zh-CN', code: string): unknown => {
  const actions = (MESSAGES[locale].settings as { audit: { actions?: unknown } }).audit.actions;
  return code.split('.').reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k], actions);
};

describe('audit actions', () => {
  const actions = recordedActions();

  it('are found in the server code', () => {
    expect(actions).toEqual(
      expect.arrayContaining(['login.succeeded', 'member.role_changed', 'skill.replaced', 'workflow.published']),
    );
    expect(actions.length).toBeGreaterThanOrEqual(24);
  });

  it('each has a label in both languages', () => {
    const missing = actions.flatMap((code) =>
      (['en', 'zh-CN'] as const).filter((l) => typeof label(l, code) !== 'string').map((l) => `${l}: ${code}`),
    );
    expect(missing).toEqual([]);
  });
});
