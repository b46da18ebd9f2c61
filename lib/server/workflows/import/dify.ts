/**
 * A Dify DSL export (YAML, `kind: app`, app mode `workflow` or `advanced-chat`) as a PaiFlow workflow and an import
 * report. Node ids become readable ids from the titles; `{{#node.var#}}` references become PaiFlow references
 * (dify-context.ts knows where each node's values are); an iteration becomes a Loop node whose body is wired back
 * to it; a node type PaiFlow has no equivalent for is dropped and its neighbours joined.
 */
import { z } from 'zod';
import { cpuLimits } from '@/engine/cpu/limits';
import { MAX_VALUE_DEPTH } from '@/engine/uploads/json-depth';
import { readYaml } from '@/engine/uploads/yaml-document';
import * as answers from './dify-answers';
import { code } from './dify-code';
import { HAS_CLASSIFIER, questionClassifierNode } from './dify-classifier';
import { HAS_EXTRACTOR, parameterExtractorNode } from './dify-extractor';
import { convertsTool, tool } from './dify-tools';
import * as branching from './dify-branching';
import { assigner, assignsConversation, difyConversationVariables } from './dify-assigner';
import { DifyContext, type DifyMode, type DifyNode } from './dify-context';
import * as nodes from './dify-nodes';
import * as lists from './dify-lists';
import { invalidDocument, shaped } from './errors';
import { closeLostEnds, mainOutput } from './lost-ends';
import { notesAsDescription, t, type ConvertedWorkflow, type Text } from './report';
import { dict, dicts, str } from './values';
import { APP_MODES, convertDifyApp } from './dify-app';

export type { ConvertedWorkflow } from './report';

const id = z.union([z.string().min(1), z.number()]).transform(String);
const documentSchema = z.looseObject({
  app: z.looseObject({
    name: z.string().nullish(),
    mode: z.string({ message: 'app.mode is missing' }),
    description: z.string().nullish(),
  }),
  workflow: z.looseObject({
    graph: z.looseObject({
      nodes: z.array(z.looseObject({ id, data: z.looseObject({ type: z.string().nullish() }) })),
      edges: z.array(z.looseObject({ source: id, target: id, sourceHandle: z.unknown() })).default([]),
    }),
    environment_variables: z.array(z.unknown()).nullish(),
    conversation_variables: z.array(z.unknown()).nullish(),
  }),
});

const MODES = ['workflow', 'advanced-chat'];
/** An app without a graph (dify-app.ts): what it needs is its model_config. */
const appSchema = z.looseObject({
  app: z.looseObject({ name: z.string().nullish(), mode: z.string() }),
  model_config: z.looseObject({}, { message: 'model_config is missing' }),
});
const STRUCTURAL = new Set(['iteration-start', 'loop-start']);

type Convert = (n: DifyNode, c: DifyContext, h: branching.Handles, leads: ReadonlySet<string>) => nodes.Converted;
const CONVERTERS: Record<string, Convert> = {
  start: (n, c) => nodes.start(n, c),
  end: (n, c) => nodes.end(n, c),
  answer: (n, c, _h, leads) =>
    answers.answer(
      n,
      c,
      leads.has(n.id),
      answers.answersShown(c, leads, (x) => str(x.data.type) === 'assigner' && assignsConversation(x, c)).has(n.id),
    ),
  llm: (n, c) => nodes.llm(n, c),
  'knowledge-retrieval': (n, c) => nodes.knowledge(n, c),
  code: (n, c) => code(n, c),
  'http-request': (n, c) => nodes.http(n, c),
  'template-transform': (n, c) => nodes.templateTransform(n, c),
  'variable-aggregator': (n, c) => lists.aggregator(n, c),
  'variable-assigner': (n, c) => lists.aggregator(n, c),
  'list-operator': (n, c) => lists.listOperator(n, c),
  'document-extractor': (n, c) => lists.documentExtractor(n, c),
  assigner: (n, c, _h, leads) => assigner(n, c, !leads.has(n.id) && !answers.inContainer(n)),
  'if-else': (n, c, h) => branching.ifElse(n, c, h),
  'question-classifier': (n, c, h) =>
    HAS_CLASSIFIER ? questionClassifierNode(n, c, h) : branching.questionClassifier(n, c, h),
  'parameter-extractor': (n, c) => (HAS_EXTRACTOR ? parameterExtractorNode(n, c) : branching.parameterExtractor(n, c)),
  iteration: (n, c) => branching.iteration(n, c),
  tool: (n, c) => tool(n, c),
};

const DROPPED_WHY: Record<string, Text> = {
  tool: t(
    'Dify tools (plugins) have no PaiFlow node: use an HTTP request or an Agent node with tools.',
    'Dify 工具（插件）在 PaiFlow 中没有对应节点：请改用 HTTP 请求节点或带工具的 Agent 节点。',
  ),
  assigner: t(
    "This Variable Assigner writes a loop's own variables, not conversation variables: PaiFlow's assigns only those.",
    '此变量赋值节点写入的是循环自身的变量而不是会话变量：PaiFlow 的变量赋值只作用于会话变量。',
  ),
  agent: t(
    "Dify's Agent node (strategy plugins) was not converted: add a PaiFlow Agent node.",
    'Dify 的 Agent 节点（策略插件）未转换：请添加 PaiFlow 的 Agent 节点。',
  ),
  loop: t(
    "Dify's Loop node was not converted: use a Loop node in while mode.",
    'Dify 的循环节点未转换：请使用 while 模式的循环节点。',
  ),
};

/** A Dify DSL as YAML text (read here, under the import limits: tests and scripts) or as the value a worker read. */
function documentOf(content: unknown): unknown {
  if (typeof content !== 'string') return content;
  return readYaml(content, { maxNodes: cpuLimits().importMaxYamlNodes, maxDepth: MAX_VALUE_DEPTH });
}

export function convertDify(content: unknown): ConvertedWorkflow {
  const data = documentOf(content);
  const appMode = str(dict(dict(data).app).mode);
  if ((APP_MODES as readonly string[]).includes(appMode)) {
    const app = shaped(appSchema, data, `a Dify ${appMode} app export (app.mode and model_config)`);
    return convertDifyApp(app, appMode as (typeof APP_MODES)[number]);
  }
  const doc = shaped(documentSchema, data, 'a Dify DSL export (app.mode and workflow.graph)');
  const mode = doc.app.mode;
  if (!MODES.includes(mode))
    throw invalidDocument(
      `Dify app mode "${mode}" is not one PaiFlow imports: workflow, advanced-chat (Chatflow), chat, agent-chat and ` +
        'completion apps do',
      'content.app.mode',
    );
  const wf = doc.workflow;
  const all = new Map(wf.graph.nodes.map((n) => [n.id, n as unknown as DifyNode]));
  const env = new Map(
    dicts(wf.environment_variables).map((v) => [
      str(v.name),
      { value: v.value, secret: str(v.value_type) === 'secret' },
    ]),
  );
  const conversation = new Map(dicts(wf.conversation_variables).map((v) => [str(v.name), v.value]));
  const c = new DifyContext(mode as DifyMode, all, env, conversation);
  const conversationVariables = difyConversationVariables(wf.conversation_variables);
  c.conversationVariables = conversationVariables.declared;
  c.edges = wf.graph.edges;
  if (mode === 'advanced-chat') c.pathOf(['sys', 'query']);

  // Ids first: references between nodes (and to dropped ones) are resolved while converting.
  const convertible: DifyNode[] = [];
  for (const n of all.values()) {
    const type = str(n.data.type);
    if (STRUCTURAL.has(type) || n.type === 'custom-iteration-start') continue;
    c.idOf.set(n.id, c.g.newId(c.titleOf(n), type || 'note'));
    if (CONVERTERS[type] && (type !== 'tool' || convertsTool(n)) && (type !== 'assigner' || assignsConversation(n, c)))
      convertible.push(n);
    else c.dropped.add(n.id);
  }
  const leads = new Set(wf.graph.edges.map((e) => e.source));
  const handles: branching.Handles = new Map();
  const notes: string[] = [];
  for (const n of all.values()) {
    const type = str(n.data.type);
    if (!c.idOf.has(n.id)) continue;
    const item = c.report.add({
      outcome: 'mapped',
      id: n.id,
      type: type || 'note',
      title: c.titleOf(n),
      nodeIds: [c.idOf.get(n.id)!],
      why: [],
    });
    if (!type || n.type === 'custom-note') {
      const text = noteText(n.data.text);
      if (text) notes.push(text);
      item.nodeIds = [];
      item.why.push(
        t(
          "A note on the canvas: its text is in the workflow's description.",
          '画布上的注释：其文字已写入工作流的描述。',
        ),
      );
      continue;
    }
    if (c.dropped.has(n.id)) {
      item.outcome = 'dropped';
      item.why.push(
        DROPPED_WHY[type] ?? t(`PaiFlow has no "${type}" node.`, `PaiFlow 没有“${type}”节点。`),
        t('It was left out and the nodes around it were joined.', '已舍弃，并把前后节点直接相连。'),
      );
      continue;
    }
    c.current = n.id;
    const r = CONVERTERS[type](n, c, handles, leads);
    item.why.unshift(...r.why);
    if (r.outcome !== 'mapped') item.outcome = r.outcome;
    item.nodeIds.push(...(r.extra ?? []));
  }
  wireEdges(c, wf.graph.edges, handles);
  wireIterations(c, handles);
  for (const d of c.dropped) c.g.bridge(c.idOf.get(d)!);
  const sourceOf = new Map([...c.idOf].map(([source, id]) => [id, source]));
  closeLostEnds(
    c.g,
    c.report,
    (id) => sourceOf.get(id),
    (id) => mainOutput(c.g, id),
  );
  finishStart(c);
  const start = [...c.nodes.values()].find((n) => n.data.type === 'start')?.id;
  if (start) for (const why of conversationVariables.skipped) c.note(why, start);
  return {
    name: str(doc.app.name).trim().slice(0, 200) || 'Imported Dify workflow',
    description: notesAsDescription(notes, str(doc.app.description)),
    graph: {
      ...c.g.build(),
      ...(c.conversationVariables.length ? { conversationVariables: c.conversationVariables } : {}),
    },
    report: c.report.build(),
  };
}

function wireEdges(
  c: DifyContext,
  edges: Array<{ source: string; target: string; sourceHandle?: unknown }>,
  handles: branching.Handles,
) {
  for (const e of edges) {
    const src = c.nodes.get(e.source);
    const target = c.idOf.get(e.target);
    const handle = str(e.sourceHandle, 'source');
    if (!src || !target) continue;
    const srcType = str(src.data.type);
    if (handle === 'fail-branch') {
      c.note(
        t('Its failure branch was left out: a failure fails the run.', '其失败分支已舍弃：节点失败会使运行失败。'),
        src.id,
      );
      continue;
    }
    if (STRUCTURAL.has(srcType) || src.type === 'custom-iteration-start') {
      const loop = c.idOf.get(src.parentId ?? str(src.data.iteration_id));
      if (loop) c.g.addEdge(loop, target, 'body');
    } else if (srcType === 'iteration') c.g.addEdge(c.idOf.get(src.id)!, target, 'done');
    else if (handles.has(src.id))
      for (const r of handles.get(src.id)!.get(handle) ?? []) c.g.addEdge(r.node, target, r.handle);
    else if (c.idOf.has(src.id)) c.g.addEdge(c.idOf.get(src.id)!, target);
  }
}

/** Each iteration's body: entered from the loop's `body` handle, its last nodes lead back to the loop. */
function wireIterations(c: DifyContext, handles: branching.Handles) {
  for (const it of c.nodes.values()) {
    if (str(it.data.type) !== 'iteration' || c.dropped.has(it.id)) continue;
    const loop = c.idOf.get(it.id)!;
    const children = [...c.nodes.values()].filter(
      (n) => (n.parentId === it.id || str(n.data.iteration_id) === it.id) && c.idOf.has(n.id),
    );
    const first = branching.iterationStartOf(it);
    if (c.idOf.has(first) && !c.g.incoming(c.idOf.get(first)!).length) c.g.addEdge(loop, c.idOf.get(first)!, 'body');
    const members = new Set(
      children.flatMap((n) => [
        c.idOf.get(n.id)!,
        ...[...(handles.get(n.id)?.values() ?? [])].flat().map((r) => r.node),
      ]),
    );
    for (const child of children) {
      const own = [c.idOf.get(child.id)!, ...[...(handles.get(child.id)?.values() ?? [])].flat().map((r) => r.node)];
      const leavesBody = own.every(
        (id) => !c.g.outgoing(id).some((e) => members.has(e.target) && !own.includes(e.target)),
      );
      if (leavesBody) c.g.addEdge(own[own.length - 1], loop, own.length > 1 ? 'else' : undefined);
    }
  }
}

/** The start node declares every input the references need; a graph without one gets one. */
function finishStart(c: DifyContext) {
  let start = c.g.allNodes().find((n) => n.type === 'start');
  if (!start) {
    start = c.g.addNode({
      id: c.g.claim('start'),
      type: 'start',
      position: { x: -280, y: 0 },
      data: { label: 'Start', config: {} },
    });
    c.report.add({
      outcome: 'approximated',
      id: start.id,
      type: 'start',
      title: 'Start',
      nodeIds: [start.id],
      why: [
        t(
          'The Dify workflow has no Start node: PaiFlow added one before its first nodes.',
          'Dify 工作流没有开始节点：PaiFlow 在最前面添加了一个。',
        ),
      ],
    });
    for (const n of c.g.allNodes())
      if (n !== start && !c.g.incoming(n.id).length && n.type !== 'start') c.g.addEdge(start.id, n.id);
  }
  start.data.config = { inputs: [...c.inputs.values()] };
  const source = [...c.nodes.values()].find((n) => n.data.type === 'start')?.id;
  const item = source ? c.report.get(source) : undefined;
  if (item && c.mode === 'advanced-chat')
    item.why.push(t('The chat message is its input "query".', '聊天消息即其输入 query。'));
  const carried = [...c.inputs.keys()].filter((k) => k.startsWith('env_') || k.startsWith('conversation_'));
  if (source && carried.length)
    c.note(
      t(
        `Dify's environment and conversation variables became optional inputs (${carried.join(', ')}) with their ` +
          'values as defaults; a secret value is not imported, and a conversation variable is not kept between runs.',
        `Dify 的环境变量和会话变量改为可选输入（${carried.join('、')}），原值作为默认值；密钥类变量的值不会导入，` +
          '会话变量也不会在多次运行之间保存。',
      ),
      source,
    );
}

/** The words of a Dify note: its text is a rich-text document as JSON (`{"root":{"children":[…{"text":…}]}}`). */
function noteText(raw: unknown): string {
  let doc: unknown = raw;
  try {
    doc = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    return str(raw).trim();
  }
  const lines: string[] = [];
  const walk = (v: unknown, depth: number): string => {
    if (depth > 50 || !v || typeof v !== 'object') return '';
    const o = v as { text?: unknown; children?: unknown; type?: unknown };
    if (typeof o.text === 'string') return o.text;
    const inner = Array.isArray(o.children) ? o.children.map((x) => walk(x, depth + 1)).join('') : '';
    if (['paragraph', 'heading', 'listitem', 'quote'].includes(str(o.type))) {
      lines.push(inner);
      return '';
    }
    return inner;
  };
  const rest = walk((doc as { root?: unknown })?.root ?? doc, 0);
  return [...lines, rest].join('\n').trim();
}
