/**
 * Dify node types that branch, ask a model for structure, or iterate: if-else (a Condition node), question-classifier
 * (an LLM node that names the class and a Condition node that routes on it), parameter-extractor (an LLM node in
 * JSON mode) and iteration (a Loop node over the list, its body wired back to it). The edges are dify.ts's; what
 * a branch's handle becomes is recorded here (`handles`).
 */
import type { DifyContext, DifyNode } from './dify-context';
import { modelSettings, refTo, text, type Converted } from './dify-nodes';
import { t, type Text } from './report';
import { dict, dicts, int, list, str } from './values';

/** Source node id → (Dify source handle → PaiFlow source node and handle). */
export type Handles = Map<string, Map<string, { node: string; handle: string }[]>>;

const BRANCH_ID = /^[A-Za-z][A-Za-z0-9_-]*$/;
const branchId = (caseId: string, i: number) => (BRANCH_ID.test(caseId) && caseId !== 'else' ? caseId : `case${i + 1}`);
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Cond {
  left: string;
  op: string;
  right?: string;
  valueType: string;
}

/** One Dify condition as PaiFlow's, or a reason it could only be approximated. */
function condition(c: DifyContext, d: Record<string, unknown>): { cond: Cond; approx?: string } {
  const left = refTo(c, d.variable_selector);
  const op = str(d.comparison_operator);
  const raw = d.value;
  const right = Array.isArray(raw) ? raw.map((v) => str(v)) : text(c, raw);
  const numeric = str(d.varType) === 'number' || str(d.var_type) === 'number';
  const type = str(d.varType) === 'boolean' ? 'boolean' : numeric ? 'number' : 'auto';
  const ops: Record<string, [string, string]> = {
    contains: ['contains', 'auto'],
    'not contains': ['not_contains', 'auto'],
    'start with': ['starts_with', 'string'],
    'end with': ['ends_with', 'string'],
    is: ['eq', type === 'boolean' ? 'boolean' : 'string'],
    'is not': ['neq', type === 'boolean' ? 'boolean' : 'string'],
    '=': ['eq', type],
    '≠': ['neq', type],
    '>': ['gt', 'number'],
    '<': ['lt', 'number'],
    '≥': ['gte', 'number'],
    '≤': ['lte', 'number'],
    'regex match': ['regex', 'string'],
  };
  const unary: Record<string, string> = {
    empty: 'is_empty',
    null: 'is_empty',
    'is null': 'is_empty',
    'not exists': 'is_empty',
    'not empty': 'not_empty',
    'not null': 'not_empty',
    'is not null': 'not_empty',
    exists: 'not_empty',
  };
  if (unary[op]) return { cond: { left, op: unary[op], valueType: 'auto' } };
  if (op === 'in' && Array.isArray(right))
    return { cond: { left, op: 'regex', right: `^(?:${right.map(escapeRegex).join('|')})$`, valueType: 'string' } };
  const m = ops[op];
  const value = Array.isArray(right) ? right.join(',') : right;
  if (m) return { cond: { left, op: m[0], right: value, valueType: m[1] } };
  return { cond: { left, op: 'not_empty', valueType: 'auto' }, approx: op };
}

export function ifElse(n: DifyNode, c: DifyContext, handles: Handles): Converted {
  const id = c.idOf.get(n.id)!;
  const cases = dicts(n.data.cases);
  if (!cases.length)
    cases.push({ case_id: 'true', logical_operator: n.data.logical_operator, conditions: n.data.conditions });
  const approx: string[] = [];
  const routes = new Map<string, { node: string; handle: string }[]>([['false', [{ node: id, handle: 'else' }]]]);
  const branches = cases.map((k, i) => {
    const bid = branchId(str(k.case_id ?? k.id), i);
    routes.set(str(k.case_id ?? k.id), [{ node: id, handle: bid }]);
    const conditions = dicts(k.conditions).map((d) => {
      const r = condition(c, d);
      if (r.approx) approx.push(r.approx);
      return r.cond;
    });
    return {
      id: bid,
      label: i === 0 ? 'IF' : `ELIF ${i}`,
      logic: str(k.logical_operator) === 'or' ? 'or' : 'and',
      conditions: conditions.length ? conditions : [{ left: '', op: 'is_empty', valueType: 'auto' }],
    };
  });
  handles.set(n.id, routes);
  c.add(n, 'condition', { branches });
  const why: Text[] = [
    t(
      'A Condition node with the same cases, in the same order; ELSE is "else".',
      '条件节点，分支与顺序相同；ELSE 对应 else。',
    ),
  ];
  if (approx.length)
    why.push(
      t(
        `Operators PaiFlow lacks (${approx.join(', ')}) became "is not empty": check these conditions.`,
        `PaiFlow 不支持的运算符（${approx.join('、')}）改成了“不为空”：请检查这些条件。`,
      ),
    );
  return { outcome: approx.length ? 'approximated' : 'mapped', why };
}

export function questionClassifier(n: DifyNode, c: DifyContext, handles: Handles): Converted {
  const id = c.idOf.get(n.id)!;
  const route = c.g.newId(`${id}_route`, 'route');
  const classes = dicts(n.data.classes).map((k, i) => ({ id: str(k.id), name: str(k.name, `class ${i + 1}`) }));
  const model = modelSettings(n.data.model);
  const instruction = text(c, n.data.instruction);
  c.add(n, 'llm', {
    ...model.config,
    systemPrompt:
      'Classify the input into exactly one of these classes and reply with the class name only:\n' +
      classes.map((k, i) => `${i + 1}. ${k.name}`).join('\n') +
      (instruction ? `\n\n${instruction}` : ''),
    userPrompt: refTo(c, n.data.query_variable_selector) || 'Classify.',
    temperature: 0,
    stream: false,
  });
  const routes = new Map<string, { node: string; handle: string }[]>();
  const branches = classes.map((k, i) => {
    const bid = `class${i + 1}`;
    routes.set(k.id, [{ node: route, handle: bid }, ...(i === 0 ? [{ node: route, handle: 'else' }] : [])]);
    return {
      id: bid,
      label: k.name.slice(0, 100),
      logic: 'and',
      conditions: [{ left: `{{${id}.output.text}}`, op: 'contains', right: k.name, valueType: 'string' }],
    };
  });
  handles.set(n.id, routes);
  const node = c.add(
    n,
    'condition',
    { branches: branches.length ? branches : [{ id: 'class1', conditions: [{ left: '', op: 'is_empty' }] }] },
    route,
  );
  node.position = { x: node.position.x + 140, y: node.position.y + 80 };
  node.data.label = `${node.data.label} → route`.slice(0, 200);
  c.g.addEdge(id, route);
  return {
    outcome: 'approximated',
    extra: [route],
    why: [
      t(
        `An LLM node that names the class, then a Condition node "${route}" that takes the first class its answer ` +
          'contains (the first class when none). The class name is output.text.',
        `LLM 节点给出类别名称，再由条件节点“${route}”按回答中包含的第一个类别分流（都不包含时走第一个类别）。` +
          '类别名称在 output.text。',
      ),
      model.why,
    ],
  };
}

export function parameterExtractor(n: DifyNode, c: DifyContext): Converted {
  const params = dicts(n.data.parameters).map((p) => {
    const options = list(p.options).map((o) => str(o));
    const details = [
      str(p.type, 'string'),
      p.required ? 'required' : '',
      options.length ? `one of ${options.join(' | ')}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `- ${str(p.name)} (${details}): ${str(p.description)}`;
  });
  const model = modelSettings(n.data.model);
  const instruction = text(c, n.data.instruction);
  c.add(n, 'llm', {
    ...model.config,
    systemPrompt:
      'Extract these parameters from the input. Reply with one JSON object with exactly these keys ' +
      '(null when a value is not in the input):\n' +
      params.join('\n') +
      (instruction ? `\n\n${instruction}` : ''),
    userPrompt: refTo(c, n.data.query) || 'Extract.',
    jsonMode: true,
    temperature: 0,
    stream: false,
  });
  return {
    outcome: 'approximated',
    why: [
      t(
        "An LLM node in JSON mode asked for the same parameters (output.json.<name>); Dify's function-calling " +
          'extraction and its __is_success / __reason checks are not carried.',
        'JSON 模式的 LLM 节点，要求返回相同的参数（output.json.<参数名>）；Dify 的函数调用提取以及 __is_success / ' +
          '__reason 校验未迁移。',
      ),
      model.why,
    ],
  };
}

export function iteration(n: DifyNode, c: DifyContext): Converted {
  const parallel = n.data.is_parallel === true;
  c.add(n, 'loop', {
    mode: 'list',
    items: refTo(c, n.data.iterator_selector),
    collect: refTo(c, n.data.output_selector),
    maxIterations: 1000,
    concurrency: parallel ? (int(n.data.parallel_nums, 1, 32) ?? 1) : 1,
  });
  const why: Text[] = [
    t(
      "A Loop node over the same list: its body is the iteration's nodes, wired back to the loop; the item is " +
        'output.item and the collected results output.results.',
      '循环节点，遍历相同的列表：循环体即迭代中的节点，并连回循环节点；当前项为 output.item，收集的结果为 output.results。',
    ),
  ];
  if (str(n.data.error_handle_mode) && str(n.data.error_handle_mode) !== 'terminated')
    why.push(
      t('An item that fails stops the loop (Dify was set to go on).', '某一项失败会终止循环（Dify 中设置为继续）。'),
    );
  return { outcome: why.length > 1 ? 'approximated' : 'mapped', why };
}

export const iterationStartOf = (n: DifyNode) => str(dict(n.data).start_node_id);
