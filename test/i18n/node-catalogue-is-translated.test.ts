/**
 * Guarantees: the node catalogue (GET /api/node-types: the palette, the inspector's forms, the `{{` autocomplete)
 * exists in English and Simplified Chinese. For every registered node type, the `nodes` messages (its package's
 * engine/nodes/<type>/messages.<locale>.json) have its label and description, a label (and the description, where the
 * engine gives one) for every config property at any depth, a row name for every array of objects, every output field's
 * description and every handle's label — so a new node type or config field without translations fails here. English is
 * the engine's own text (and the labels the inspector derived from the property names before, which the end-to-end
 * tests select by); the API answers in the language of the `paiflow-locale` cookie, else Accept-Language.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GET as nodeTypes } from '@/app/api/node-types/route';
import { humanize, singular } from '@/components/editor/inspector/field-chrome';
import { defineNode } from '@/engine/node-kit/define';
import { createDefaultRegistry, NodeRegistry } from '@/engine/nodes/registry';
import { localizeCatalogue, outputFieldKey, type DescribedNodeType } from '@/lib/i18n/node-catalogue';
import { LOCALES, type Locale } from '@/lib/i18n/locales';
import { getApp } from '@/lib/server/app';
import { MESSAGES, type Messages } from '@/messages';
import { ownerToken } from '../support/owner';
import { call, useFreshDataDir } from '../api/api-helpers';

useFreshDataDir('paiflow-node-catalogue-');

type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  type?: string | string[];
  title?: string;
  description?: string;
};

const typeOf = (s: Schema | undefined) => (Array.isArray(s?.type) ? s.type.find((t) => t !== 'null') : s?.type);

interface Prop {
  /** Where its messages are: `[<prop>, 'fields', <sub>, …]` below `<type>.config`. */
  key: string[];
  name: string;
  schema: Schema;
}

/** Every config property below `schema` (through nested objects, array items and anyOf variants). */
function propsOf(schema: Schema, base: string[] = [], out: Prop[] = []): Prop[] {
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    const key = [...base, name];
    out.push({ key, name, schema: p });
    propsOf(p, [...key, 'fields'], out);
  }
  if (schema.items) propsOf(schema.items, base, out);
  for (const v of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) propsOf(v, base, out);
  return out;
}

/** Every message key a described node type needs, as key paths below `nodes`. */
function requiredKeys(node: DescribedNodeType): string[][] {
  const k = node.type;
  const keys: string[][] = [
    [k, 'label'],
    [k, 'description'],
    ...node.inputs.map((h) => [k, 'inputs', h.id]),
    ...node.outputs.map((h) => [k, 'outputs', h.id]),
    ...node.outputFields.map((f) => [k, 'outputFields', outputFieldKey(f.path)]),
  ];
  for (const p of propsOf(node.configSchema as Schema)) {
    keys.push([k, 'config', ...p.key, 'label']);
    if (p.schema.description) keys.push([k, 'config', ...p.key, 'description']);
    if (typeOf(p.schema) === 'array' && typeOf(p.schema.items) === 'object') keys.push([k, 'config', ...p.key, 'item']);
  }
  return keys;
}

function messageAt(locale: Locale, key: string[]): string | undefined {
  let m: Messages | string | undefined = MESSAGES[locale].nodes;
  for (const s of key) m = m && typeof m === 'object' ? m[s] : undefined;
  return typeof m === 'string' && m.trim() ? m : undefined;
}

const missingKeys = (node: DescribedNodeType, locale: Locale) =>
  requiredKeys(node)
    .filter((key) => messageAt(locale, key) === undefined)
    .map((key) => key.join('.'));

const described = createDefaultRegistry().describe();

/** Every text of a localized node type a reader sees, with where it is. */
function textsOf(node: DescribedNodeType): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['label', node.label],
    ['description', node.description],
    ...node.inputs.map((h): [string, string] => [`inputs.${h.id}`, h.label]),
    ...node.outputs.map((h): [string, string] => [`outputs.${h.id}`, h.label]),
    ...node.outputFields.map((f): [string, string] => [`outputFields.${f.path}`, f.description]),
  ];
  for (const p of propsOf(node.configSchema as Schema)) {
    const where = `config.${p.key.join('.')}`;
    out.push([`${where} title`, p.schema.title ?? '(none)']);
    if (p.schema.description) out.push([`${where} description`, p.schema.description]);
    if (typeOf(p.schema) === 'array' && typeOf(p.schema.items) === 'object')
      out.push([`${where} items.title`, p.schema.items?.title ?? '(none)']);
  }
  return out.map(([where, text]) => [`${node.type}.${where}`, text]);
}

const CJK = /[\u3400-\u9fff]/;
/** Left as it is in Chinese: upper-case acronyms such as LLM, URL or ID. */
const ACRONYMS = /^[A-Z0-9][A-Z0-9 ._-]*$/;

describe('the node catalogue is translated', () => {
  it('registers node types with config properties, output fields and handles (the check below has work to do)', () => {
    expect(described.length).toBeGreaterThanOrEqual(15);
    const keys = described.flatMap(requiredKeys);
    expect(keys.filter((k) => k[1] === 'config').length).toBeGreaterThan(150);
    expect(keys.some((k) => k.join('.') === 'llm.config.grounding.fields.enabled.label')).toBe(true);
    expect(
      keys.some((k) => k.join('.') === 'condition.config.branches.fields.conditions.fields.left.description'),
    ).toBe(true);
  });

  it.each(LOCALES)('has every message of every registered node type in %s', (locale) => {
    expect(described.flatMap((node) => missingKeys(node, locale))).toEqual([]);
  });

  it('fails for a node type (or a config field) that has no translations', () => {
    const extra = defineNode({
      type: 'translation_probe',
      version: 1,
      label: 'Probe',
      category: 'data',
      description: 'A node type nobody translated.',
      configSchema: z.object({ depth: z.number().describe('How deep') }),
      inputs: [{ id: 'in', label: 'in' }],
      outputs: [{ id: 'out', label: 'out' }],
      outputFields: [{ path: 'value', description: 'The value' }],
      execute: async () => ({ output: {} }),
    });
    const [probe] = new NodeRegistry().register(extra).describe();
    for (const locale of LOCALES) {
      expect(missingKeys(probe, locale)).toEqual([
        'translation_probe.label',
        'translation_probe.description',
        'translation_probe.inputs.in',
        'translation_probe.outputs.out',
        'translation_probe.outputFields.value',
        'translation_probe.config.depth.label',
        'translation_probe.config.depth.description',
      ]);
    }
    // Meanwhile it is served in the engine's English rather than not at all.
    const [zh] = localizeCatalogue([probe], 'zh-CN');
    expect(zh).toEqual(probe);
  });

  it("answers English with the engine's own texts and the labels the inspector derived from property names", () => {
    const en = localizeCatalogue(described, 'en');
    const withoutTitles = JSON.parse(JSON.stringify(en), (k, v) => (k === 'title' ? undefined : v));
    expect(withoutTitles).toEqual(JSON.parse(JSON.stringify(described)));
    const wrong: string[] = [];
    for (const node of en) {
      for (const p of propsOf(node.configSchema as Schema)) {
        if (p.schema.title !== humanize(p.name)) wrong.push(`${node.type}.${p.key.join('.')}: ${p.schema.title}`);
        const item = p.schema.items?.title;
        if (item !== undefined && item !== singular(humanize(p.name)).toLowerCase())
          wrong.push(`${node.type}.${p.key.join('.')} item: ${item}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers Simplified Chinese for every label, description, field title, output field and handle', () => {
    const zh = localizeCatalogue(described, 'zh-CN');
    const english = new Map(described.flatMap(textsOf));
    const untranslated = zh
      .flatMap(textsOf)
      .filter(([, text]) => !CJK.test(text) && !ACRONYMS.test(text))
      .map(([where, text]) => `${where}: ${text} (English: ${english.get(where)})`);
    expect(untranslated).toEqual([]);
    // The `{{refs}}` in descriptions are shown as written (the message files escape them for ICU).
    const llm = zh.find((t) => t.type === 'llm')!.configSchema as Schema;
    expect(llm.properties?.grounding?.properties?.context?.description).toContain('{{kb.output.context}}');
    expect(llm.properties?.grounding?.properties?.enabled?.title).toBe('启用');
  });
});

describe('GET /api/node-types', () => {
  const byType = (body: DescribedNodeType[]) => new Map(body.map((t) => [t.type, t]));
  const schemaOf = (t: DescribedNodeType | undefined) => t?.configSchema as Schema;

  it('answers in Chinese for Accept-Language zh-CN, with content-language and vary', async () => {
    const a = await call(nodeTypes, 'GET', '/api/node-types', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-language')).toBe('zh-CN');
    expect(a.headers.get('vary')).toMatch(/Accept-Language/);
    expect(a.headers.get('vary')).toMatch(/Cookie/);
    const types = byType(a.body);
    expect(types.get('start')?.label).toBe('开始');
    expect(types.get('http')?.label).toBe('HTTP 请求');
    expect(schemaOf(types.get('llm')).properties?.systemPrompt?.title).toBe('系统提示词');
    expect(types.get('loop')?.outputs.map((o) => o.label)).toEqual(['循环体', '完成']);
    expect(types.get('llm')?.outputFields.find((f) => f.path === 'text')?.description).toBe('模型的回复');
  });

  it('answers in the language of the paiflow-locale cookie before Accept-Language', async () => {
    const token = await ownerToken(await getApp());
    const a = await call(nodeTypes, 'GET', '/api/node-types', {
      headers: { authorization: `Bearer ${token}`, cookie: 'paiflow-locale=zh-CN', 'accept-language': 'en' },
    });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-language')).toBe('zh-CN');
    expect(byType(a.body).get('agent')?.label).toBe('智能体');
  });

  it('answers in English for Accept-Language en (and with no preference)', async () => {
    const preferences: Array<Record<string, string>> = [{ 'accept-language': 'en-US,en;q=0.8' }, {}];
    for (const headers of preferences) {
      const a = await call(nodeTypes, 'GET', '/api/node-types', { headers });
      expect(a.status).toBe(200);
      expect(a.headers.get('content-language')).toBe('en');
      const types = byType(a.body);
      expect(types.get('start')?.label).toBe('Start');
      expect(schemaOf(types.get('llm')).properties?.systemPrompt?.title).toBe('System prompt');
      expect(schemaOf(types.get('llm')).properties?.grounding?.description).toBe(
        'Hallucination controls for retrieval-augmented answers',
      );
    }
  });
});
