/**
 * Three-way merge of workflow documents for save conflicts: `base` is the revision the editor loaded, `mine` the
 * editor's draft, `theirs` what the server holds now. Nodes and edges merge by id, workflow fields (name,
 * description, engine) one by one: what only one side changed is taken from that side; what both sides changed
 * differently is a clash, listed by id, that the user settles per item (`picks`) — nothing is guessed.
 *
 * Two deliberate exceptions keep the common cases clean instead of clashing:
 * - a node's position is layout, not behaviour (as in lib/server/workflows/graph-diff.ts): it merges apart from the
 *   node's content, and when both sides moved a node, mine wins (it is what the user sees on the canvas);
 * - both sides adding a node with the same id is two different nodes (ids are `llm_1`, `llm_2` … in every tab), so
 *   mine is renamed to a free id and its edges and `{{llm_1.…}}` references follow.
 * A node removed on one side that the other side changed, or connected new edges to, is a clash too: removing it
 * silently would drop the other side's work. Pure: no React, no I/O.
 */
import type { EngineChoice, Graph, GraphEdge, GraphNode } from '@/components/api/types';
import { canonicalJson } from '@/engine/graph/canonical-json';
import { newNodeId, remapRefs } from './graph-model';

/** What a save stores: the graph plus the workflow's own fields. */
export interface WorkflowDoc {
  name: string;
  description: string;
  engine: EngineChoice;
  graph: Graph;
}

export type Side = 'mine' | 'theirs';
/** What one side did to an item since base; `connected`: kept a node the other side removed, and wired edges to it. */
export type Action = 'added' | 'removed' | 'changed' | 'connected';
export type DocField = 'name' | 'description' | 'engine';

export interface NodeRef {
  id: string;
  label: string;
}
export interface EdgeRef {
  id: string;
  /** Labels of the nodes it connects, for "Summarize → End". */
  from: string;
  to: string;
}

/** One side's changes since base, for the conflict dialog. */
export interface SideChanges {
  added: NodeRef[];
  removed: NodeRef[];
  /** Content (type, label, config, policies) changed; position may have changed too. */
  changed: NodeRef[];
  /** Only the position changed. */
  moved: NodeRef[];
  edgesAdded: EdgeRef[];
  edgesRemoved: EdgeRef[];
  edgesChanged: EdgeRef[];
  fields: Array<{ field: DocField; from: string; to: string }>;
  /** Number of entries above; 0 = this side changed nothing. */
  count: number;
}

export interface MergeClash {
  /** `node:<id>`, `edge:<id>` or `field:<name>`: the key of `picks`. */
  key: string;
  kind: 'node' | 'edge' | 'field';
  id: string;
  label: string;
  mine: Action;
  theirs: Action;
}

export interface MergeResult {
  /** The merged document with `picks` applied; an unpicked clash takes theirs (see `unresolved`). */
  doc: WorkflowDoc;
  clashes: MergeClash[];
  /** Keys of clashes without a pick: merging must wait for them. */
  unresolved: string[];
  /** Nodes mine added under an id theirs also added for a different node, and the id they got. */
  renamed: Array<{ from: string; to: string; label: string }>;
  /** Edges left without an end by a pick that removed their node. */
  droppedEdges: string[];
  mine: SideChanges;
  theirs: SideChanges;
}

const FIELDS: DocField[] = ['name', 'description', 'engine'];

const contentKey = (n: GraphNode) => canonicalJson({ ...n, position: undefined });
const positionKey = (n: GraphNode) => canonicalJson(n.position ?? null);
const nodeEq = (a: GraphNode, b: GraphNode) => contentKey(a) === contentKey(b);
const edgeEq = (a: GraphEdge, b: GraphEdge) => canonicalJson(a) === canonicalJson(b);
const connectionKey = (e: GraphEdge) =>
  canonicalJson([e.source, e.sourceHandle ?? null, e.target, e.targetHandle ?? null]);
const labelOf = (n: GraphNode | undefined, id: string) => (n?.data?.label as string | undefined) || id;

function actionOf<T>(b: T | undefined, x: T | undefined, eq: (a: T, b: T) => boolean): Action | null {
  if (b === undefined) return x === undefined ? null : 'added';
  if (x === undefined) return 'removed';
  return eq(b, x) ? null : 'changed';
}

/**
 * The clean result of a three-way item merge (`value` undefined = absent), or null when both sides changed it
 * differently. Unchanged on one side → the other side's; changed alike on both → theirs (the same).
 */
function threeWay<T>(
  b: T | undefined,
  m: T | undefined,
  t: T | undefined,
  eq: (a: T, b: T) => boolean,
): { value: T | undefined } | null {
  const ma = actionOf(b, m, eq);
  const ta = actionOf(b, t, eq);
  if (!ma) return { value: t };
  if (!ta) return { value: m };
  if (m === undefined && t === undefined) return { value: undefined };
  if (m !== undefined && t !== undefined && eq(m, t)) return { value: t };
  return null;
}

const byId = <T extends { id: string }>(xs: T[]) => new Map(xs.map((x) => [x.id, x]));

/** One side's changes since base, with node labels (the side's own, else base's). */
export function describeChanges(base: WorkflowDoc, side: WorkflowDoc): SideChanges {
  const b = byId(base.graph.nodes);
  const s = byId(side.graph.nodes);
  const ref = (id: string): NodeRef => ({ id, label: labelOf(s.get(id) ?? b.get(id), id) });
  const out: SideChanges = {
    added: [],
    removed: [],
    changed: [],
    moved: [],
    edgesAdded: [],
    edgesRemoved: [],
    edgesChanged: [],
    fields: [],
    count: 0,
  };
  for (const [id, n] of s) {
    const was = b.get(id);
    if (!was) out.added.push(ref(id));
    else if (!nodeEq(was, n)) out.changed.push(ref(id));
    else if (positionKey(was) !== positionKey(n)) out.moved.push(ref(id));
  }
  for (const id of b.keys()) if (!s.has(id)) out.removed.push(ref(id));
  const be = byId(base.graph.edges ?? []);
  const se = byId(side.graph.edges ?? []);
  const eref = (e: GraphEdge): EdgeRef => ({ id: e.id, from: ref(e.source).label, to: ref(e.target).label });
  for (const [id, e] of se) {
    const was = be.get(id);
    if (!was) out.edgesAdded.push(eref(e));
    else if (!edgeEq(was, e)) out.edgesChanged.push(eref(e));
  }
  for (const [id, e] of be) if (!se.has(id)) out.edgesRemoved.push(eref(e));
  for (const f of FIELDS) if (base[f] !== side[f]) out.fields.push({ field: f, from: base[f], to: side[f] });
  out.count =
    out.added.length +
    out.removed.length +
    out.changed.length +
    out.moved.length +
    out.edgesAdded.length +
    out.edgesRemoved.length +
    out.edgesChanged.length +
    out.fields.length;
  return out;
}

/** Documents equal as stored (positions included, key order ignored). */
export function sameDoc(a: WorkflowDoc, b: WorkflowDoc): boolean {
  return (
    FIELDS.every((f) => a[f] === b[f]) &&
    canonicalJson({ nodes: a.graph.nodes, edges: a.graph.edges ?? [] }) ===
      canonicalJson({ nodes: b.graph.nodes, edges: b.graph.edges ?? [] })
  );
}

/**
 * Gives mine's nodes (and edges) that collide with a different node (edge) theirs added under the same id a free id,
 * and rewrites mine's own edges and references to follow. Base cannot refer to them: they are new.
 */
function renameCollisions(base: Graph, mine: Graph, theirs: Graph) {
  const b = byId(base.nodes);
  const t = byId(theirs.nodes);
  const taken = new Set([...b.keys(), ...t.keys(), ...mine.nodes.map((n) => n.id)]);
  const ids = new Map<string, string>();
  for (const n of mine.nodes) {
    const other = t.get(n.id);
    if (b.has(n.id) || !other || nodeEq(n, other)) continue;
    const id = newNodeId(n.type, taken);
    taken.add(id);
    ids.set(n.id, id);
  }
  const be = byId(base.edges ?? []);
  const te = byId(theirs.edges ?? []);
  const takenEdges = new Set([...be.keys(), ...te.keys(), ...(mine.edges ?? []).map((e) => e.id)]);
  const edgeIds = new Map<string, string>();
  for (const e of mine.edges ?? []) {
    const other = te.get(e.id);
    if (be.has(e.id) || !other || edgeEq(e, other)) continue;
    let i = 2;
    while (takenEdges.has(`${e.id}-${i}`)) i++;
    takenEdges.add(`${e.id}-${i}`);
    edgeIds.set(e.id, `${e.id}-${i}`);
  }
  if (!ids.size && !edgeIds.size) return { graph: mine, renamed: ids };
  const nodes = mine.nodes.map((n) => {
    const was = b.get(n.id);
    const touched = !was || !nodeEq(was, n);
    const data = touched && ids.size ? (remapRefs(n.data, ids) as GraphNode['data']) : n.data;
    return { ...n, id: ids.get(n.id) ?? n.id, data };
  });
  const edges = (mine.edges ?? []).map((e) => ({
    ...e,
    id: edgeIds.get(e.id) ?? e.id,
    source: ids.get(e.source) ?? e.source,
    target: ids.get(e.target) ?? e.target,
  }));
  return { graph: { ...mine, nodes, edges }, renamed: ids };
}

/** Merges `mine` and `theirs` over `base`; `picks` settle clashes by key (see MergeClash). */
export function mergeWorkflows(
  base: WorkflowDoc,
  mineDoc: WorkflowDoc,
  theirs: WorkflowDoc,
  picks: Readonly<Record<string, Side>> = {},
): MergeResult {
  const { graph: mine, renamed } = renameCollisions(base.graph, mineDoc.graph, theirs.graph);
  const clashes: MergeClash[] = [];
  const pick = (key: string) => picks[key] ?? 'theirs';

  // ---- workflow fields
  const fields = {} as Pick<WorkflowDoc, DocField>;
  for (const f of FIELDS) {
    const clean = threeWay(base[f], mineDoc[f], theirs[f], (a, c) => a === c);
    if (clean) {
      (fields as Record<DocField, string>)[f] = clean.value as string;
      continue;
    }
    const key = `field:${f}`;
    clashes.push({ key, kind: 'field', id: f, label: f, mine: 'changed', theirs: 'changed' });
    (fields as Record<DocField, string>)[f] = pick(key) === 'mine' ? mineDoc[f] : theirs[f];
  }

  const bN = byId(base.graph.nodes);
  const mN = byId(mine.nodes);
  const tN = byId(theirs.graph.nodes);
  const bE = byId(base.graph.edges ?? []);
  const mE = byId(mine.edges ?? []);
  const tE = byId(theirs.graph.edges ?? []);

  // Nodes each side wired new (or changed) edges to: removing such a node on the other side is a clash.
  const wiredBy = (side: Map<string, GraphEdge>) => {
    const ids = new Set<string>();
    for (const [id, e] of side) {
      const was = bE.get(id);
      if (!was || !edgeEq(was, e)) ids.add(e.source).add(e.target);
    }
    return ids;
  };
  const wired = { mine: wiredBy(mE), theirs: wiredBy(tE) };

  // ---- nodes: theirs' order, then what only mine added
  const order = [...new Set([...tN.keys(), ...mN.keys(), ...bN.keys()])];
  const nodes: GraphNode[] = [];
  for (const id of order) {
    const b = bN.get(id);
    const m = mN.get(id);
    const t = tN.get(id);
    let clean = threeWay(b, m, t, nodeEq);
    if (clean && b && !clean.value) {
      // Removed by one side (the other unchanged): still a clash if the other side wired new edges to it.
      const keeper: Side | null = m && !t ? 'mine' : t && !m ? 'theirs' : null;
      if (keeper && wired[keeper].has(id)) clean = null;
    }
    let value: GraphNode | undefined;
    if (clean) value = clean.value;
    else {
      const key = `node:${id}`;
      const act = (x: GraphNode | undefined, side: Side): Action =>
        actionOf(b, x, nodeEq) ?? (wired[side].has(id) ? 'connected' : 'changed');
      clashes.push({
        key,
        kind: 'node',
        id,
        label: labelOf(m ?? t ?? b, id),
        mine: act(m, 'mine'),
        theirs: act(t, 'theirs'),
      });
      value = pick(key) === 'mine' ? m : t;
    }
    if (!value) continue;
    // Position merges apart from content: each side's move counts; when both moved it, mine wins.
    if (m && t) {
      const pos = threeWay(b, m, t, (x, y) => positionKey(x) === positionKey(y));
      value = { ...value, position: (pos?.value ?? m).position };
    }
    nodes.push(value);
  }
  const alive = new Set(nodes.map((n) => n.id));

  // ---- edges: the same by id; then those left without an end are dropped, duplicates of a connection merged
  const edgeOrder = [...new Set([...tE.keys(), ...mE.keys(), ...bE.keys()])];
  const edges: GraphEdge[] = [];
  const droppedEdges: string[] = [];
  const connections = new Set<string>();
  for (const id of edgeOrder) {
    const b = bE.get(id);
    const m = mE.get(id);
    const t = tE.get(id);
    const clean = threeWay(b, m, t, edgeEq);
    let value: GraphEdge | undefined;
    if (clean) value = clean.value;
    else {
      const key = `edge:${id}`;
      const any = (m ?? t ?? b)!;
      const label = `${labelOf(mN.get(any.source) ?? tN.get(any.source), any.source)} → ${labelOf(
        mN.get(any.target) ?? tN.get(any.target),
        any.target,
      )}`;
      clashes.push({
        key,
        kind: 'edge',
        id,
        label,
        mine: actionOf(b, m, edgeEq) ?? 'changed',
        theirs: actionOf(b, t, edgeEq) ?? 'changed',
      });
      value = pick(key) === 'mine' ? m : t;
    }
    if (!value) continue;
    if (!alive.has(value.source) || !alive.has(value.target)) {
      droppedEdges.push(id);
      continue;
    }
    const conn = connectionKey(value);
    if (connections.has(conn)) continue; // both sides drew the same connection under different ids
    connections.add(conn);
    edges.push(value);
  }

  // Conversation variables merge as one value: mine when I changed them, else theirs.
  const mineChanged =
    canonicalJson(mineDoc.graph.conversationVariables ?? []) !== canonicalJson(base.graph.conversationVariables ?? []);
  const conversationVariables = (mineChanged ? mineDoc.graph : theirs.graph).conversationVariables;
  const graph: Graph = { ...theirs.graph, nodes, edges };
  if (conversationVariables?.length) graph.conversationVariables = conversationVariables;
  else delete graph.conversationVariables;
  const renamedList = [...renamed].map(([from, to]) => ({ from, to, label: labelOf(mN.get(to), from) }));
  return {
    doc: { ...fields, graph },
    clashes,
    unresolved: clashes.filter((c) => !picks[c.key]).map((c) => c.key),
    renamed: renamedList,
    droppedEdges,
    mine: describeChanges(base, mineDoc),
    theirs: describeChanges(base, theirs),
  };
}
