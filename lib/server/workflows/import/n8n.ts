/**
 * An n8n workflow export (`{ name, nodes, connections }`, as JSON text or the object) as a PaiFlow workflow and an
 * import report. Triggers become the Start node, nodes are converted in the order items flow (a node's `$json`
 * references need its inputs' places, n8n-context.ts), connections become edges (IF and Switch outputs become their
 * branches), AI sub-nodes (chat model, tools, memory) fold into the Agent or LLM node they are attached to, and a
 * workflow without Respond to Webhook gets an End node that returns its last nodes' outputs.
 */
import { z } from 'zod';
import { buildTopology, topologicalOrder } from '@/engine/graph/topology';
import type { ConvertedWorkflow } from './report';
import { invalidDocument, shaped, unreadable } from './errors';
import { slug } from './graph-builder';
import { closeLostEnds } from './lost-ends';
import { N8nContext, type Link, type N8nNode } from './n8n-context';
import * as flow from './n8n-flow';
import * as nodes from './n8n-nodes';
import * as ai from './n8n-ai';
import * as extract from './n8n-extract';
import * as items from './n8n-items';
import * as lists from './n8n-lists';
import { orderCrossBranchReads } from './n8n-order';
import { isTrigger, triggerNode } from './n8n-triggers';
import { identifier, refOf } from './refs';
import { t, type ReportItem } from './report';
import { dict, list, str } from './values';
import { notesAsDescription } from './report';

const documentSchema = z.looseObject({
  name: z.string().nullish(),
  nodes: z.array(
    z.looseObject({
      name: z.string().min(1, 'a node has no name'),
      type: z.string().min(1, 'a node has no type'),
      typeVersion: z.number().optional(),
      parameters: z.record(z.string(), z.unknown()).nullish(),
      disabled: z.boolean().nullish(),
    }),
  ),
  connections: z.record(z.string(), z.unknown()).default({}),
  settings: z.looseObject({ timezone: z.string().nullish() }).nullish(),
});

type Convert = (n: N8nNode, c: N8nContext, index: number) => flow.N8nConverted | undefined;
const BASE = 'n8n-nodes-base.';
const LC = '@n8n/n8n-nodes-langchain.';
const CONVERTERS: Record<string, Convert> = {
  [`${BASE}set`]: nodes.setNode,
  [`${BASE}if`]: flow.ifNode,
  [`${BASE}switch`]: flow.switchNode,
  [`${BASE}merge`]: flow.mergeNode,
  [`${BASE}httpRequest`]: nodes.httpNode,
  [`${BASE}code`]: flow.codeNode,
  [`${BASE}function`]: flow.codeNode,
  [`${BASE}functionItem`]: flow.codeNode,
  [`${BASE}respondToWebhook`]: nodes.respondNode,
  [`${LC}openAi`]: ai.openAiNode,
  [`${BASE}openAi`]: ai.legacyOpenAiNode,
  [`${BASE}filter`]: items.filterNode,
  [`${BASE}aggregate`]: items.aggregateNode,
  [`${BASE}limit`]: (n, c) => lists.foldedNode(n, c) ?? items.unchangedOnOneItem(n, c),
  [`${BASE}sort`]: (n, c) => lists.foldedNode(n, c) ?? items.unchangedOnOneItem(n, c),
  [`${BASE}removeDuplicates`]: (n, c) => lists.foldedNode(n, c) ?? items.unchangedOnOneItem(n, c),
  [`${BASE}itemLists`]: (n, c, i) => items.itemListsNode(n, c, i) ?? lists.splitOutNode(n, c, i),
  [`${BASE}splitOut`]: lists.splitOutNode,
  [`${LC}agent`]: ai.agentNode,
  [`${LC}chainLlm`]: ai.chainNode,
  [`${LC}textClassifier`]: extract.textClassifierNode,
  [`${LC}informationExtractor`]: extract.informationExtractorNode,
};
/** Nodes whose items go on as they came: IF, Switch, Merge (for later references), and NoOp or disabled ones. */
const PASS_THROUGH = new Set([
  `${BASE}if`,
  `${BASE}switch`,
  `${BASE}merge`,
  `${BASE}noOp`,
  `${BASE}filter`,
  `${BASE}limit`,
  `${BASE}sort`,
  `${BASE}removeDuplicates`,
]);
/** Nodes that split a list into items, which needs a Loop node around what follows. */
const SPLITS = new Set([`${BASE}splitOut`, `${BASE}splitInBatches`, `${BASE}itemLists`]);

function parseJson(content: unknown): unknown {
  if (typeof content !== 'string') return content;
  try {
    return JSON.parse(content);
  } catch (e) {
    const msg = (e as Error).message;
    const at = Number(/position (\d+)/.exec(msg)?.[1]);
    if (!Number.isFinite(at)) throw unreadable('JSON', msg);
    const before = content.slice(0, at).split('\n');
    throw unreadable('JSON', msg, before.length, before[before.length - 1].length + 1);
  }
}

function linksOf(connections: Record<string, unknown>) {
  const links: Link[] = [];
  const subLinks: Array<{ from: string; to: string; kind: string }> = [];
  for (const [from, byKind] of Object.entries(connections))
    for (const [kind, outputs] of Object.entries(dict(byKind)))
      list(outputs).forEach((targets, output) => {
        for (const to of list(targets).map(dict)) {
          if (!str(to.node)) continue;
          if (kind === 'main') links.push({ from, output, to: str(to.node), input: Number(to.index) || 0 });
          else subLinks.push({ from, to: str(to.node), kind });
        }
      });
  return { links, subLinks };
}

export function convertN8n(content: unknown): ConvertedWorkflow {
  let data = parseJson(content);
  if (Array.isArray(data)) {
    if (data.length !== 1)
      throw invalidDocument(`the file holds ${data.length} n8n workflows: import them one at a time`);
    data = data[0];
  }
  const doc = shaped(documentSchema, data, 'an n8n workflow export (nodes and connections)');
  const all = new Map(doc.nodes.map((n) => [n.name, n as unknown as N8nNode]));
  const { links, subLinks } = linksOf(doc.connections);
  const c = new N8nContext(
    all,
    links.filter((l) => all.has(l.from) && all.has(l.to)),
    new Map(),
  );
  c.subLinks = subLinks;
  const timezone = str(doc.settings?.timezone) || 'UTC';
  const start = c.g.claim('start');
  const subNodes = new Set(subLinks.map((l) => l.from));
  const items = new Map<string, ReportItem>();
  for (const n of all.values()) {
    const item = c.report.add({
      outcome: 'mapped',
      id: n.id ?? n.name,
      type: n.type,
      title: n.name,
      nodeIds: [],
      why: [],
    });
    items.set(n.name, item);
    if (isTrigger(n.type)) {
      c.idOf.set(n.name, start);
      c.own.set(n.name, [{ kind: 'inputs', base: 'inputs' }]);
    } else if (!subNodes.has(n.name)) c.idOf.set(n.name, c.g.newId(n.name, n.type.split('.').pop() ?? 'node'));
    if (n.disabled || PASS_THROUGH.has(n.type)) c.passThrough.add(n.name);
  }

  const order = flowOrder(c);
  order.forEach((name, index) => convertOne(c, all.get(name)!, items.get(name)!, index, timezone));
  const ends = wire(c, start);
  orderCrossBranchReads(c, order);
  for (const name of subNodes) ai.foldSubNode(c, all.get(name)!, items.get(name)!);
  let startItem = [...items.values()].find((i) => i.nodeIds.includes(start));
  startItem ??= c.report.add({
    outcome: 'approximated',
    id: start,
    type: 'start',
    title: 'Start',
    nodeIds: [start],
    why: [
      t(
        'The n8n workflow has no trigger: PaiFlow added a Start node before its first nodes.',
        'n8n 工作流没有触发器：PaiFlow 在最前面添加了开始节点。',
      ),
    ],
  });
  if (ends)
    startItem.why.push(
      t(
        `n8n has no end step: PaiFlow added an End node "${ends}" whose outputs are the last nodes' outputs.`,
        `n8n 没有结束步骤：PaiFlow 添加了结束节点“${ends}”，其输出即最后各节点的输出。`,
      ),
    );
  c.g.addNode({
    id: start,
    type: 'start',
    position: { x: -300, y: 0 },
    data: { label: 'Start', config: { inputs: [...c.inputs.values()] } },
  });
  return {
    name: str(doc.name).trim().slice(0, 200) || 'Imported n8n workflow',
    description: notesAsDescription(c.notes),
    graph: c.g.build(),
    report: c.report.build(),
  };
}

/** Node names in the order items flow (sub-nodes left out), so a node's inputs are converted before it. */
function flowOrder(c: N8nContext): string[] {
  const names = [...c.nodes.keys()].filter((n) => c.idOf.has(n));
  const t = buildTopology({
    nodes: names.map((id) => ({ id })),
    edges: c.links.map((l) => ({ source: l.from, target: l.to })),
  });
  const { order, rest } = topologicalOrder(t);
  return [...order, ...rest];
}

function convertOne(c: N8nContext, n: N8nNode, item: ReportItem, index: number, timezone: string) {
  c.current = n.name;
  const id = c.idOf.get(n.name)!;
  item.nodeIds = [id];
  if (isTrigger(n.type)) {
    const r = triggerNode(n, c, timezone);
    item.why.unshift(...r.why);
    if (r.outcome !== 'mapped') item.outcome = r.outcome;
    if (r.trigger) item.trigger = r.trigger;
    return;
  }
  const drop = (...why: ReturnType<typeof t>[]) => {
    item.outcome = 'dropped';
    item.why = [...why, t('It was left out and the nodes around it were joined.', '已舍弃，并把前后节点直接相连。')];
  };
  // Nodes whose leaving out changes nothing: PaiFlow does the same without them.
  const same = (why: ReturnType<typeof t>) => {
    item.nodeIds = [];
    item.why = [why];
  };
  if (n.type === `${BASE}stickyNote`) {
    const text = str(dict(n.parameters).content).trim();
    if (text) c.notes.push(text);
    return same(
      t(
        "A sticky note on the canvas: its text is in the workflow's description.",
        '画布上的便签：其文字已写入工作流的描述。',
      ),
    );
  }
  if (n.disabled)
    return same(
      t(
        'It is disabled in n8n, where items pass it unchanged: it was left out and its neighbours joined, which does ' +
          'the same.',
        '它在 n8n 中已停用，数据原样通过：已省略并把前后节点相连，效果相同。',
      ),
    );
  if (n.type === `${BASE}noOp`)
    return same(
      t(
        'It does nothing (items pass it unchanged): it was left out and its neighbours joined, which does the same.',
        '它不做任何处理（数据原样通过）：已省略并把前后节点相连，效果相同。',
      ),
    );
  const r = CONVERTERS[n.type]?.(n, c, index);
  if (!r) {
    const short = n.type.replace(BASE, '').replace(LC, '');
    const resource = str(dict(n.parameters).resource);
    if (SPLITS.has(n.type)) return drop(items.SPLIT_WHY);
    return drop(
      t(
        `PaiFlow has no node for n8n's ${short}${resource ? ` (${resource})` : ''}.`,
        `PaiFlow 没有对应 n8n ${short} 的节点。`,
      ),
    );
  }
  item.why.unshift(...r.why);
  if (r.outcome !== 'mapped') item.outcome = r.outcome;
  if (r.handles) c.handles.set(n.name, r.handles);
}

/** Edges from the connections; dropped nodes bridged; roots led from Start; an End when nothing answers. */
function wire(c: N8nContext, start: string): string | undefined {
  const added = new Set(c.g.allNodes().map((n) => n.id));
  for (const l of c.links) {
    const from = c.idOf.get(l.from);
    const to = c.idOf.get(l.to);
    if (!from || !to || to === start) continue;
    const handles = c.handles.get(l.from);
    if (handles) for (const h of handles.get(l.output) ?? []) c.g.addEdge(from, to, h);
    else c.g.addEdge(from, to);
  }
  for (const [name, id] of c.idOf) if (id !== start && !added.has(id) && c.nodes.has(name)) c.g.bridge(id);
  for (const n of c.g.allNodes()) if (!c.g.incoming(n.id).length) c.g.addEdge(start, n.id);
  const nameOf = new Map([...c.idOf].map(([name, id]) => [id, name]));
  if (c.g.allNodes().some((n) => n.type === 'end')) {
    closeLostEnds(
      c.g,
      c.report,
      (id) => {
        const name = nameOf.get(id);
        return name ? (c.nodes.get(name)?.id ?? name) : undefined;
      },
      (id) => refOf(c.fieldPaths(c.sourcesOf(nameOf.get(id) ?? ''), [])),
    );
    return undefined;
  }
  const leaves = c.g.allNodes().filter((n) => !c.g.outgoing(n.id).length);
  const end = c.g.claim('end');
  const outputs = (leaves.length ? leaves : [{ id: start }]).map((leaf, i) => {
    const name = nameOf.get(leaf.id);
    const sources = name ? c.sourcesOf(name) : [{ kind: 'inputs' as const, base: 'inputs' }];
    return {
      name: leaves.length > 1 ? identifier(slug(name ?? '') || `result${i + 1}`, `result${i + 1}`) : 'result',
      value: refOf(c.fieldPaths(sources, [])),
    };
  });
  const x = Math.max(0, ...c.g.allNodes().map((n) => n.position.x)) + 300;
  c.g.addNode({ id: end, type: 'end', position: { x, y: 0 }, data: { label: 'End', config: { outputs } } });
  for (const leaf of leaves) {
    const branches = (leaf.data.config as { branches?: Array<{ id: string }> }).branches;
    if (leaf.type === 'condition')
      for (const h of [...(branches ?? []).map((b) => b.id), 'else']) c.g.addEdge(leaf.id, end, h);
    else c.g.addEdge(leaf.id, end);
  }
  if (!leaves.length) c.g.addEdge(start, end);
  return end;
}
