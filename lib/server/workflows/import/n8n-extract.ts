/**
 * n8n's LangChain Text Classifier and Information Extractor as PaiFlow's Question classifier and Parameter extractor
 * nodes (when registered). The classifier's categories are its classes, each n8n output its class's handle (the
 * "Other" output, with the fallback set to it, the "other" handle); items pass it unchanged, so what follows reads
 * the classifier's input as n8n's `$json` does. The extractor's attributes (or the top-level fields of its JSON
 * example or schema) are its parameters, and `$json.output.<name>` is output.<name>.
 */
import { createDefaultRegistry } from '@/engine/nodes/registry';
import type { N8nContext, N8nNode } from './n8n-context';
import type { N8nConverted } from './n8n-flow';
import { t, type Text } from './report';
import { dict, dicts, isDict, str } from './values';

const registry = createDefaultRegistry();
export const HAS_N8N_CLASSIFIER = registry.has('question_classifier');
export const HAS_N8N_EXTRACTOR = registry.has('parameter_extractor');

const CLASS_ID = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;
const PARAM = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const modelWhy = (model: string) =>
  t(
    `Model ${model}: give the node a credential; without one it uses the server's OpenAI-compatible settings, or ` +
      'the offline demo model.',
    `模型 ${model}：请为节点选择凭据；未选择时使用服务器的 OpenAI 兼容配置，或离线演示模型。`,
  );

export function textClassifierNode(n: N8nNode, c: N8nContext, index: number): N8nConverted | undefined {
  if (!HAS_N8N_CLASSIFIER) return undefined;
  const p = dict(n.parameters);
  const o = dict(p.options);
  const { model, ...settings } = c.modelOf(c.attached(n.name, 'ai_languageModel')[0]);
  const taken = new Set<string>();
  const classes = dicts(dict(p.categories).categories).map((k, i) => {
    const name = str(k.category).trim() || `class ${i + 1}`;
    const slug = name.replace(/\s+/g, '_');
    let id = CLASS_ID.test(slug) && slug.toLowerCase() !== 'other' ? slug : `class${i + 1}`;
    while (taken.has(id)) id = `${id}_`;
    taken.add(id);
    return { id, name, ...(str(k.description) ? { description: str(k.description) } : {}) };
  });
  if (!classes.length) return undefined;
  c.add(
    n,
    'question_classifier',
    {
      model,
      ...settings,
      query: c.text(p.inputText, { field: 'inputText' }) || '{{inputs.text}}',
      classes,
      instruction: c.text(o.systemPromptTemplate, { field: 'systemPromptTemplate' }),
    },
    index,
  );
  c.passThrough.add(n.name);
  const handles = new Map<number, string[]>(classes.map((k, i) => [i, [k.id]]));
  const why: Text[] = [
    t(
      'A Question classifier node with the same categories, each n8n output its class’s branch; items pass on ' +
        'unchanged, as in n8n.',
      '问题分类节点，类别相同，n8n 的每个输出对应一个类别分支；数据原样传递，与 n8n 相同。',
    ),
  ];
  if (str(o.fallback) === 'other') handles.set(classes.length, ['other']);
  else
    why.push(
      t(
        'Text that fits no category takes the "other" branch, which leads nowhere, where n8n discarded the item.',
        '不属于任何类别的文本走“other”分支，该分支没有后续节点；n8n 中该数据被丢弃。',
      ),
    );
  let outcome: N8nConverted['outcome'] = 'mapped';
  if (o.multiClass === true) {
    outcome = 'approximated';
    why.push(
      t(
        'n8n could send an item to several categories; PaiFlow picks one.',
        'n8n 可将一条数据分到多个类别；PaiFlow 只选一个。',
      ),
    );
  }
  return { outcome, why: [...why, modelWhy(model)], handles };
}

interface Param {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

function typeOfExample(v: unknown): string {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (Array.isArray(v))
    return typeof v[0] === 'number' ? 'array[number]' : isDict(v[0]) ? 'array[object]' : 'array[string]';
  if (isDict(v)) return 'object';
  return 'string';
}

function typeOfSchema(s: Record<string, unknown>): string {
  const type = Array.isArray(s.type) ? str(s.type.find((x) => x !== 'null')) : str(s.type);
  if (type === 'array') {
    const item = str(dict(s.items).type);
    return item === 'number' || item === 'integer'
      ? 'array[number]'
      : item === 'object'
        ? 'array[object]'
        : 'array[string]';
  }
  return { integer: 'number', number: 'number', boolean: 'boolean', object: 'object' }[type] ?? 'string';
}

/** The parameters an Information Extractor asks for: its attributes, or its JSON schema's or example's fields. */
function parametersOf(p: Record<string, unknown>): Param[] {
  const kind = str(p.schemaType, 'fromAttributes');
  if (kind === 'fromAttributes')
    return dicts(dict(p.attributes).attributes).map((a) => ({
      name: str(a.name),
      type: { number: 'number', boolean: 'boolean' }[str(a.type)] ?? 'string',
      description: [str(a.description), str(a.type) === 'date' ? '(a date, YYYY-MM-DD)' : ''].filter(Boolean).join(' '),
      required: a.required === true,
    }));
  let doc: unknown;
  try {
    doc = JSON.parse(str(kind === 'manual' ? p.inputSchema : p.jsonSchemaExample));
  } catch {
    return [];
  }
  const d = dict(doc);
  if (isDict(d.properties)) {
    const required = new Set(Array.isArray(d.required) ? d.required.map(String) : []);
    return Object.entries(d.properties).map(([name, s]) => ({
      name,
      type: typeOfSchema(dict(s)),
      description: str(dict(s).description),
      required: required.has(name),
    }));
  }
  return Object.entries(d).map(([name, v]) => ({ name, type: typeOfExample(v), description: '', required: false }));
}

export function informationExtractorNode(n: N8nNode, c: N8nContext, index: number): N8nConverted | undefined {
  if (!HAS_N8N_EXTRACTOR) return undefined;
  const p = dict(n.parameters);
  const params = parametersOf(p);
  if (!params.length || params.some((x) => !PARAM.test(x.name))) return undefined;
  const { model, ...settings } = c.modelOf(c.attached(n.name, 'ai_languageModel')[0]);
  c.add(
    n,
    'parameter_extractor',
    {
      model,
      ...settings,
      query: c.text(p.text, { field: 'text' }) || '{{inputs.text}}',
      parameters: params,
      instruction: c.text(dict(p.options).systemPromptTemplate, { field: 'systemPromptTemplate' }),
    },
    index,
  );
  c.own.set(n.name, [{ kind: 'extracted', base: `${c.idOf.get(n.name)!}.output` }]);
  return {
    outcome: 'mapped',
    why: [
      t(
        'A Parameter extractor node with the same attributes (the fields of its schema), text and system prompt; ' +
          '$json.output.<name> is output.<name>.',
        '参数提取节点，属性（即其结构的字段）、文本和系统提示词相同；$json.output.<名称> 对应 output.<名称>。',
      ),
      modelWhy(model),
    ],
  };
}
