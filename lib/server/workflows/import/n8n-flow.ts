/**
 * n8n nodes that route or join items, and the Code node: IF and Switch become Condition nodes (IF's outputs are
 * `true` / `else`, Switch's `out0`, `out1` … and `else` for its fallback), Merge a JSON Template node that joins its
 * inputs, and a JavaScript Code node a PaiFlow Code node whose source runs inside a small n8n-like shim.
 */
import type { N8nContext, N8nNode } from './n8n-context';
import { nodesNamedInCode } from './n8n-expressions';
import { refOf } from './refs';
import { t, type Outcome, type Text } from './report';
import { dict, dicts, num, str } from './values';

export interface N8nConverted {
  outcome: Outcome;
  why: Text[];
  /** n8n output index → PaiFlow source handles (branching nodes). */
  handles?: Map<number, string[]>;
}

interface Cond {
  left: string;
  op: string;
  right?: string;
  valueType: string;
}

const FILTER_OPS: Record<string, string> = {
  equals: 'eq',
  notEquals: 'neq',
  contains: 'contains',
  notContains: 'not_contains',
  startsWith: 'starts_with',
  endsWith: 'ends_with',
  regex: 'regex',
  gt: 'gt',
  lt: 'lt',
  gte: 'gte',
  lte: 'lte',
  after: 'gt',
  before: 'lt',
  afterOrEquals: 'gte',
  beforeOrEquals: 'lte',
  empty: 'is_empty',
  notEmpty: 'not_empty',
  exists: 'not_empty',
  notExists: 'is_empty',
};

const V1_OPS: Record<string, string> = {
  equal: 'eq',
  notEqual: 'neq',
  contains: 'contains',
  notContains: 'not_contains',
  startsWith: 'starts_with',
  endsWith: 'ends_with',
  regex: 'regex',
  isEmpty: 'is_empty',
  isNotEmpty: 'not_empty',
  smaller: 'lt',
  smallerEqual: 'lte',
  larger: 'gt',
  largerEqual: 'gte',
  after: 'gt',
  before: 'lt',
};

const valueTypeOf = (type: string) => (['number', 'boolean', 'string'].includes(type) ? type : 'auto');

/** The conditions of an n8n filter (IF v2, Switch v3), and the operators that had no PaiFlow equivalent. */
export function filterConditions(
  c: N8nContext,
  filter: unknown,
  field: string,
): { conds: Cond[]; logic: string; odd: string[] } {
  const f = dict(filter);
  const odd: string[] = [];
  const conds = dicts(f.conditions).map((k): Cond => {
    const op = dict(k.operator);
    const operation = str(op.operation, 'equals');
    const left = c.text(k.leftValue, { field });
    const type = valueTypeOf(str(op.type));
    if (operation === 'true' || operation === 'false')
      return { left, op: 'eq', right: operation, valueType: 'boolean' };
    const mapped = FILTER_OPS[operation];
    if (!mapped) {
      odd.push(`${str(op.type)} ${operation}`);
      return { left, op: 'not_empty', valueType: 'auto' };
    }
    return { left, op: mapped, right: c.text(k.rightValue, { field }), valueType: type };
  });
  return { conds, logic: str(f.combinator) === 'or' ? 'or' : 'and', odd };
}

/** IF v1 / Switch v1-2 comparisons: `{ value1, operation, value2 }` grouped by data type. */
function v1Condition(c: N8nContext, type: string, k: Record<string, unknown>, odd: string[], value1?: unknown): Cond {
  const operation = str(k.operation, 'equal');
  const left = c.text(value1 ?? k.value1, { field: 'value1' });
  const mapped = V1_OPS[operation];
  if (!mapped) {
    odd.push(`${type} ${operation}`);
    return { left, op: 'not_empty', valueType: 'auto' };
  }
  return {
    left,
    op: mapped,
    right: c.text(k.value2, { field: 'value2' }),
    valueType: valueTypeOf(type === 'dateTime' ? 'string' : type),
  };
}

export const always = (): Cond => ({ left: '', op: 'is_empty', valueType: 'auto' });

export function oddWhy(odd: string[]): Text[] {
  return odd.length
    ? [
        t(
          `Comparisons PaiFlow lacks (${odd.join(', ')}) became "is not empty": check them.`,
          `PaiFlow 不支持的比较（${odd.join('、')}）改成了“不为空”：请检查。`,
        ),
      ]
    : [];
}

export function ifNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  let conds: Cond[];
  let logic: string;
  let odd: string[] = [];
  if (Array.isArray(dict(p.conditions).conditions))
    ({ conds, logic, odd } = filterConditions(c, p.conditions, 'conditions'));
  else {
    conds = Object.entries(dict(p.conditions)).flatMap(([type, items]) =>
      dicts(items).map((k) => v1Condition(c, type, k, odd)),
    );
    logic = str(p.combineOperation) === 'any' ? 'or' : 'and';
  }
  c.add(
    n,
    'condition',
    { branches: [{ id: 'true', label: 'true', logic, conditions: conds.length ? conds : [always()] }] },
    index,
  );
  return {
    outcome: odd.length ? 'approximated' : 'mapped',
    why: [
      t(
        'A Condition node: its "true" branch is the true output, "else" the false one.',
        '条件节点：true 分支对应 true 输出，else 对应 false 输出。',
      ),
      ...oddWhy(odd),
    ],
    handles: new Map([
      [0, ['true']],
      [1, ['else']],
    ]),
  };
}

export function switchNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  const odd: string[] = [];
  const branches: Array<{ id: string; label: string; logic: string; conditions: Cond[] }> = [];
  const handles = new Map<number, string[]>();
  const options = dict(p.options);
  let fallback: unknown = options.fallbackOutput ?? p.fallbackOutput;
  if (str(p.mode) === 'expression') {
    const count = num(p.numberOutputs) ?? 4;
    for (let i = 0; i < count; i++) {
      branches.push({
        id: `out${i}`,
        label: `${i}`,
        logic: 'and',
        conditions: [{ left: c.text(p.output, { field: 'output' }), op: 'eq', right: String(i), valueType: 'number' }],
      });
      handles.set(i, [`out${i}`]);
    }
  } else if (Array.isArray(dict(p.rules).values)) {
    dicts(dict(p.rules).values).forEach((rule, i) => {
      const r = filterConditions(c, rule.conditions, `rules[${i}]`);
      odd.push(...r.odd);
      branches.push({
        id: `out${i}`,
        label: (rule.renameOutput ? str(rule.outputKey) : '') || `Output ${i}`,
        logic: r.logic,
        conditions: r.conds.length ? r.conds : [always()],
      });
      handles.set(i, [`out${i}`]);
    });
    if (fallback === 'extra') handles.set(branches.length, ['else']);
  } else {
    // Switch v1-2: rules of one data type compare value1, several rules may lead to the same output.
    const type = str(p.dataType, 'number');
    for (const rule of dicts(dict(p.rules).rules)) {
      const out = num(rule.output) ?? 0;
      let b = branches.find((x) => x.id === `out${out}`);
      if (!b) branches.push((b = { id: `out${out}`, label: `Output ${out}`, logic: 'or', conditions: [] }));
      b.conditions.push(v1Condition(c, type, rule, odd, p.value1));
      handles.set(out, [`out${out}`]);
    }
    if (typeof fallback === 'number' && fallback < 0) fallback = 'none';
  }
  if (typeof fallback === 'number') handles.set(fallback, [...(handles.get(fallback) ?? []), 'else']);
  c.add(
    n,
    'condition',
    {
      branches: branches.length ? branches : [{ id: 'out0', label: 'Output 0', logic: 'and', conditions: [always()] }],
    },
    index,
  );
  return {
    outcome: odd.length ? 'approximated' : 'mapped',
    why: [
      t(
        'A Condition node with one branch per output, tested in order (n8n can send an item down several ' +
          'matching outputs; PaiFlow takes the first)' +
          `${fallback === 'extra' || typeof fallback === 'number' ? '; the fallback output is "else"' : ''}.`,
        '条件节点，每个输出一个分支，按顺序判断（n8n 可让一条数据走多个匹配的输出，PaiFlow 只走第一个）' +
          `${fallback === 'extra' || typeof fallback === 'number' ? '；兜底输出对应 else' : ''}。`,
      ),
      ...oddWhy(odd),
    ],
    handles,
  };
}

export function mergeNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const count = Math.max(
    2,
    num(dict(n.parameters).numberInputs) ?? 2,
    ...c.links.filter((l) => l.to === n.name).map((l) => l.input + 1),
  );
  const doc: Record<string, string> = {};
  for (let i = 0; i < count; i++) doc[`input${i + 1}`] = refOf(c.fieldPaths(c.inputSources(n.name, i), []));
  c.add(n, 'template', { template: JSON.stringify(doc, null, 2), format: 'json' }, index);
  return {
    outcome: 'approximated',
    why: [
      t(
        'A Template node (JSON) that waits for its inputs and holds each as input1, input2 …; nodes after it read ' +
          "the first input that has the field they name. PaiFlow passes one value, not lists of items, so n8n's " +
          `${str(dict(n.parameters).mode, 'append')} mode is not reproduced.`,
        '模板节点（JSON），等待各输入并以 input1、input2 … 保存；其后的节点读取第一个含有所需字段的输入。PaiFlow 传递的' +
          `是单个值而非数据项列表，因此不会重现 n8n 的 ${str(dict(n.parameters).mode, 'append')} 模式。`,
      ),
    ],
  };
}

/** Globals of n8n's Code node the shim does not provide. */
const UNSUPPORTED = [
  '$now',
  '$today',
  'DateTime',
  '$env',
  '$execution',
  '$workflow',
  '$vars',
  '$jmespath',
  '$prevNode',
  'require(',
  'this.helpers',
  '$getWorkflowStaticData',
  '$binary',
  '.binary',
];

const SHIM_HEAD = `  const text = (c) => (c.v ? c.v.text : undefined);
  const shape = (c) => {
    const v =
      c.k === 'openai' ? { message: { role: 'assistant', content: c.j ? c.v && c.v.json : text(c) } }
      : c.k === 'agent' ? { output: text(c) }
      : c.k === 'chain' ? { text: text(c) }
      : c.k === 'parsed' ? { output: c.v && c.v.json }
      : c.k === 'extracted' ? { output: c.v }
      : c.v;
    return c.rest ? Object.assign({}, pick(c.rest), v) : v;
  };
  const pick = (list) => {
    for (const c of list || []) if (c.v !== undefined && c.v !== null) return shape(c);
    return {};
  };
  // One item per upstream source that has a value: a Merge's inputs in order, as n8n's append mode gives them.
  const itemsOf = (list) => {
    const all = (list || []).filter((c) => c.v !== undefined && c.v !== null).map((c) => ({ json: shape(c) }));
    return all.length ? all : [{ json: {} }];
  };
  const handle = (all) => ({
    item: all[0],
    first: () => all[0],
    last: () => all[all.length - 1],
    all: () => all,
    isExecuted: true,
  });
  const items = itemsOf(input.json);
  const $json = items[0].json;
  const $input = handle(items);
  const $ = (name) => handle(itemsOf((input.nodes || {})[name]));
  const $node = new Proxy({}, { get: (_t, name) => ({ json: pick((input.nodes || {})[name]) }) });
`;

export function codeNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  const language = str(p.language, 'javaScript');
  const source = str(p.jsCode ?? p.functionCode ?? p.functionItemCode ?? p.pythonCode);
  const inputs: Record<string, unknown> = { json: c.shaped(c.inputSources(n.name)) };
  const named = nodesNamedInCode(source).filter((name) => c.nodes.has(name));
  if (named.length) inputs.nodes = Object.fromEntries(named.map((name) => [name, c.shaped(c.sourcesOf(name))]));
  c.own.set(n.name, [{ kind: 'plain', base: `${c.idOf.get(n.name)}.output` }]);
  if (language !== 'javaScript') {
    const code =
      `// Imported from n8n: this code is ${language}, and PaiFlow's Code node runs JavaScript. Rewrite it as\n` +
      '// function main(input) returning an object; input.json is the input item.\n' +
      `/* The code from n8n:\n${source.replace(/\*\//g, '* /')}\n*/\n` +
      'function main(input) {\n' +
      "  throw new Error('This node still holds Python code from n8n: rewrite it in JavaScript');\n" +
      '}\n';
    c.add(n, 'code', { code, inputs }, index);
    return {
      outcome: 'approximated',
      why: [
        t(
          'A Code node that fails until rewritten: PaiFlow runs JavaScript; the Python code is kept in a comment.',
          '代码节点（改写前运行会失败）：PaiFlow 运行 JavaScript，原 Python 代码保留在注释中。',
        ),
      ],
    };
  }
  const body = source
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  const code =
    `// Imported from n8n's Code node "${n.name.replace(/\n/g, ' ')}". PaiFlow passes one JSON value, not a list of items:\n` +
    "// $json, $input.first().json and items[0].json are this node's input, $('Node').item.json another node's\n" +
    "// output, and the first item the code returns is this node's output.\n" +
    'async function main(input) {\n' +
    SHIM_HEAD +
    '  const result = await (async () => {\n' +
    `${body}\n` +
    '  })();\n' +
    '  const first = Array.isArray(result) ? result[0] : result;\n' +
    "  const json = first && typeof first === 'object' && 'json' in first ? first.json : first;\n" +
    "  if (json && typeof json === 'object' && !Array.isArray(json)) return json;\n" +
    '  return { value: json === undefined ? null : json };\n' +
    '}\n';
  c.add(n, 'code', { code, inputs }, index);
  const missing = UNSUPPORTED.filter((g) => source.includes(g));
  const why: Text[] = [
    t(
      'A Code node running the same JavaScript inside a small n8n-like wrapper: PaiFlow passes one value, so ' +
        'the code ' +
        'sees one item ($json, $input.first(), items) and only the first item it returns is passed on.',
      '代码节点，在一个类似 n8n 的小包装中运行相同的 JavaScript：PaiFlow 传递单个值，因此代码只看到一条数据' +
        '（$json、$input.first()、items），且只把返回的第一条传给后续节点。',
    ),
  ];
  if (missing.length)
    why.push(
      t(
        `It uses ${missing.join(', ')}, which the wrapper does not provide: rewrite those parts.`,
        `代码使用了包装中没有的 ${missing.join('、')}：请改写这些部分。`,
      ),
    );
  return { outcome: 'approximated', why };
}
