/**
 * The message files are complete in both languages: every English key has a Simplified Chinese translation (and no
 * Chinese key lacks its English one), nothing is empty, every message parses as ICU, both languages use the same
 * placeholders and tags, and a "translation" that is still English fails unless it is only universal words.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { MESSAGES, NAMESPACES, type Messages } from '@/messages';

function flatten(m: Messages, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(m)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

type Ast = ReturnType<IntlMessageFormat['getAst']>;
function argumentsOf(ast: Ast, into = new Set<string>()): Set<string> {
  for (const el of ast as unknown as Array<Record<string, unknown>>) {
    if (typeof el.value === 'string' && el.type !== 0 && el.type !== 7)
      into.add(`${el.type === 8 ? '<' : ''}${el.value}`);
    if (el.options) {
      for (const o of Object.values(el.options as Record<string, { value: Ast }>)) argumentsOf(o.value, into);
    }
    if (Array.isArray(el.children)) argumentsOf(el.children as Ast, into);
  }
  return into;
}

const CJK = /[\u3400-\u9fff]/;
/** Text the same in both languages: product names, protocols, units and placeholders. */
const UNIVERSAL =
  /^(?:\s|[^A-Za-z]|\{[^}]*\}|<\/?\w+>|\b(?:[A-Z0-9][A-Z0-9.+-]*[A-Z0-9]|[A-Z])\b|PaiFlow|Webhook|cron|English|ms|px|curl)*$/;

describe.each(NAMESPACES)('messages/%s.json', (ns) => {
  const en = flatten(MESSAGES.en[ns]);
  const zh = flatten(MESSAGES['zh-CN'][ns]);

  it('has the same keys in English and Simplified Chinese', () => {
    expect(
      [...en.keys()].filter((k) => !zh.has(k)),
      'keys with no Chinese translation',
    ).toEqual([]);
    expect(
      [...zh.keys()].filter((k) => !en.has(k)),
      'Chinese keys with no English message',
    ).toEqual([]);
  });

  it('has no empty message, and every message parses with the same placeholders in both languages', () => {
    const problems: string[] = [];
    for (const [key, enText] of en) {
      const zhText = zh.get(key);
      if (!enText.trim()) problems.push(`${key}: empty English message`);
      if (zhText === undefined) continue;
      if (!zhText.trim()) problems.push(`${key}: empty Chinese message`);
      try {
        const a = [...argumentsOf(new IntlMessageFormat(enText, 'en').getAst())].sort();
        const b = [...argumentsOf(new IntlMessageFormat(zhText, 'zh-CN').getAst())].sort();
        if (a.join() !== b.join()) problems.push(`${key}: placeholders ${a.join(',')} vs ${b.join(',')}`);
      } catch (e) {
        problems.push(`${key}: not valid ICU (${(e as Error).message})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('translates into Chinese (a message left in English must be only universal words)', () => {
    const untranslated = [...zh]
      .filter(([, text]) => !CJK.test(text) && !UNIVERSAL.test(text))
      .map(([k, t]) => `${k}: ${t}`);
    expect(untranslated).toEqual([]);
  });
});
