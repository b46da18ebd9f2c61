/**
 * Dify's parameter extractor as PaiFlow's Parameter extractor node (engine/nodes/parameter_extractor): the same
 * parameters with their types, descriptions, required flags and a select's options, the model, the query and the
 * instruction; `<node>.<name>` is output.<name>. What differs is reported: PaiFlow fails the node after one retry
 * where Dify returns `__is_success: 0` and a `__reason` (a node that reads those two makes the mapping approximate, and
 * its reference is reported missing), a type PaiFlow has no equivalent for is asked for as text, and a name PaiFlow
 * cannot use as a field is renamed (references follow). Without that node type the extractor stays an LLM node
 * (dify-branching.ts).
 */
import { createDefaultRegistry } from '@/engine/nodes/registry';
import type { DifyContext, DifyNode } from './dify-context';
import { modelSettings, refTo, text, type Converted } from './dify-nodes';
import { t, type Text } from './report';
import { dicts, list, str } from './values';

export const HAS_EXTRACTOR = createDefaultRegistry().has('parameter_extractor');

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const TYPES: Record<string, string> = {
  string: 'string',
  select: 'string',
  number: 'number',
  bool: 'boolean',
  boolean: 'boolean',
  'array[string]': 'array[string]',
  'array[number]': 'array[number]',
  'array[object]': 'array[object]',
  object: 'object',
};

export function parameterExtractorNode(n: DifyNode, c: DifyContext): Converted {
  const id = c.idOf.get(n.id)!;
  const model = modelSettings(n.data.model);
  const why: Text[] = [];
  const renamed = new Map<string, string>();
  const taken = new Set<string>();
  const parameters = dicts(n.data.parameters).map((p, i) => {
    const source = str(p.name);
    let name = NAME.test(source) && !taken.has(source) ? source : `param${i + 1}`;
    while (taken.has(name)) name = `${name}_`;
    taken.add(name);
    if (name !== source) {
      renamed.set(source, name);
      why.push(t(`Parameter "${source}" is output.${name}.`, `参数“${source}”改为 output.${name}。`));
    }
    const difyType = str(p.type, 'string');
    const type = TYPES[difyType] ?? 'string';
    if (!TYPES[difyType])
      why.push(
        t(
          `Parameter "${source}" of Dify type ${difyType} is asked for as text.`,
          `参数“${source}”的 Dify 类型 ${difyType} 在 PaiFlow 中按文本提取。`,
        ),
      );
    const options = list(p.options)
      .map((o) => str(o))
      .filter(Boolean);
    return {
      name,
      type,
      description: str(p.description),
      required: p.required === true,
      ...(difyType === 'select' && options.length ? { options } : {}),
    };
  });
  const names = new Set(parameters.map((p) => p.name));
  c.add(n, 'parameter_extractor', {
    model: model.config.model,
    ...('temperature' in model.config ? { temperature: model.config.temperature } : {}),
    ...('maxTokens' in model.config ? { maxTokens: model.config.maxTokens } : {}),
    query: refTo(c, n.data.query) || '{{inputs.query}}',
    parameters,
    instruction: text(c, n.data.instruction),
  });
  // The node fails instead of answering "no success": nothing stands for __is_success / __reason.
  const statusUsed = readsStatus(n.id, c);
  c.outputs.set(n.id, (variable) => {
    const name = renamed.get(variable) ?? variable;
    return names.has(name) ? `${id}.output.${name}` : undefined;
  });
  return {
    outcome: why.length || statusUsed ? 'approximated' : 'mapped',
    why: [
      t(
        'A Parameter extractor node with the same parameters, query and instruction; each parameter is ' +
          "output.<name>. Where Dify answers __is_success 0, PaiFlow's node fails after one retry.",
        '参数提取节点，参数、查询和指令相同；每个参数为 output.<参数名>。Dify 返回 __is_success 为 0 的情况，' +
          'PaiFlow 的节点在重试一次后失败。',
      ),
      ...why,
      model.why,
    ],
  };
}

/** Whether another Dify node reads the extractor's `__is_success` or `__reason` (a selector or a `{{#…#}}`). */
function readsStatus(id: string, c: DifyContext): boolean {
  const status = /^__(?:is_success|reason)$/;
  const seen = (v: unknown): boolean => {
    if (typeof v === 'string') return v.includes(`#${id}.__is_success#`) || v.includes(`#${id}.__reason#`);
    if (Array.isArray(v))
      return (v.length === 2 && v[0] === id && typeof v[1] === 'string' && status.test(v[1])) || v.some(seen);
    return !!v && typeof v === 'object' && Object.values(v).some(seen);
  };
  return [...c.nodes.values()].some((other) => other.id !== id && seen(other.data));
}
