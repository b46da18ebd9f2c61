// Guarantees: auto-layout makes graphs readable — a short flow stays one left-to-right row, a 300-node chain is
// wrapped into rows that fit a 16:10 screen at a zoom of at least 0.5, a condition's targets follow its handles with
// no crossing edges, a loop's closing edge runs back with the body laid out between, and no two cards overlap.
import { describe, expect, it } from 'vitest';
import type { NodeTypeInfo } from '@/components/api/types';
import { autoLayout, type LayoutResult } from './auto-layout';
import { EditorStore } from './editor-store';
import type { FlowEdge, FlowNode } from './graph-model';

const CARD = { width: 200, height: 80 };

const info = (type: string, outputs: string[], dynamicOutputs = false): NodeTypeInfo => ({
  type,
  version: 1,
  label: type,
  category: 'data',
  description: '',
  sideEffects: false,
  configSchema: { type: 'object', properties: {} },
  inputs: type === 'start' ? [] : [{ id: 'in', label: 'in' }],
  outputs: outputs.map((id) => ({ id, label: id })),
  dynamicOutputs,
});
const types = new Map<string, NodeTypeInfo>([
  ['start', info('start', ['out'])],
  ['end', info('end', [])],
  ['template', info('template', ['out'])],
  ['condition', info('condition', ['if', 'else'], true)],
  ['loop', info('loop', ['body', 'done'], true)],
]);

const node = (id: string, type: string, config: Record<string, unknown> = {}): FlowNode => ({
  id,
  type,
  // Every node starts at the same point: the layout alone must separate them.
  position: { x: 0, y: 0 },
  data: { config },
  measured: CARD,
});
const edge = (source: string, target: string, sourceHandle: string | null = null): FlowEdge => ({
  id: `${source}-${sourceHandle ?? 'out'}-${target}`,
  source,
  target,
  sourceHandle,
  targetHandle: null,
});

function chain(length: number): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const ids = ['start', ...Array.from({ length: length - 2 }, (_, i) => `t${i + 1}`), 'end'];
  const nodes = ids.map((id) => node(id, id === 'start' || id === 'end' ? id : 'template'));
  const edges = ids.slice(1).map((id, i) => edge(ids[i], id));
  return { nodes, edges };
}

function box(r: LayoutResult) {
  const ps = [...r.positions.values()];
  const x0 = Math.min(...ps.map((p) => p.x));
  const y0 = Math.min(...ps.map((p) => p.y));
  const x1 = Math.max(...ps.map((p) => p.x + CARD.width));
  const y1 = Math.max(...ps.map((p) => p.y + CARD.height));
  return { width: x1 - x0, height: y1 - y0 };
}

/** The zoom at which the whole layout just fits a viewport (what React Flow's fitView computes, without padding). */
const fitZoom = (r: LayoutResult, vw: number, vh: number) => Math.min(vw / box(r).width, vh / box(r).height);

function expectNoOverlap(r: LayoutResult) {
  const ps = [...r.positions.entries()].sort((a, b) => a[1].x - b[1].x);
  for (let i = 0; i < ps.length; i++)
    for (let j = i + 1; j < ps.length && ps[j][1].x < ps[i][1].x + CARD.width; j++) {
      const [a, b] = [ps[i][1], ps[j][1]];
      const overlap = Math.abs(a.y - b.y) < CARD.height;
      expect(overlap, `${ps[i][0]} and ${ps[j][0]} overlap`).toBe(false);
    }
}

/** Do segments p1–p2 and q1–q2 cross (touching at a shared end point does not count)? */
function segmentsCross(p1: Pt, p2: Pt, q1: Pt, q2: Pt): boolean {
  const d = (a: Pt, b: Pt, c: Pt) => (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  const d1 = d(q1, q2, p1);
  const d2 = d(q1, q2, p2);
  const d3 = d(p1, p2, q1);
  const d4 = d(p1, p2, q2);
  return d1 * d2 < 0 && d3 * d4 < 0;
}
type Pt = { x: number; y: number };
function routesCross(a: Pt[], b: Pt[]): boolean {
  for (let i = 1; i < a.length; i++)
    for (let j = 1; j < b.length; j++) if (segmentsCross(a[i - 1], a[i], b[j - 1], b[j])) return true;
  return false;
}

describe('auto-layout', () => {
  it('keeps a short flow in one left-to-right row', async () => {
    const { nodes, edges } = chain(6);
    const r = await autoLayout(nodes, edges, types);
    expect(r.wrapped).toBe(false);
    expect(r.direction).toBe('RIGHT');
    const xs = nodes.map((n) => r.positions.get(n.id)!.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect(new Set(nodes.map((n) => r.positions.get(n.id)!.y)).size).toBe(1);
    expect(r.edges.every((e) => e.type === undefined)).toBe(true);
  });

  it('wraps a 300-node chain into rows that fit a 16:10 screen at a readable zoom', async () => {
    const { nodes, edges } = chain(300);
    const r = await autoLayout(nodes, edges, types);
    expect(r.wrapped).toBe(true);
    const { width, height } = box(r);
    // One row would be ~74,000 px wide (fits 1920 px only at zoom 0.026). Wrapped, the box is near 16:10 …
    expect(width / height).toBeGreaterThan(1.1);
    expect(width / height).toBeLessThan(2.4);
    // … and fits a 1920×1200 screen at zoom ≥ 0.5. (A 1440×900 one cannot: 300 cards of 200×80 alone cover 93 %
    // of the 2880×1800 px it shows at zoom 0.5, so the best possible there is ~0.4 with any gap between cards.)
    expect(fitZoom(r, 1920, 1200)).toBeGreaterThanOrEqual(0.5);
    expect(fitZoom(r, 1440, 900)).toBeGreaterThan(0.35);
    expectNoOverlap(r);
    // Rows read left to right, top to bottom: each node is right of its predecessor or starts a lower row.
    for (let i = 1; i < nodes.length; i++) {
      const prev = r.positions.get(nodes[i - 1].id)!;
      const cur = r.positions.get(nodes[i].id)!;
      expect(cur.x > prev.x || cur.y > prev.y, `${nodes[i].id} follows ${nodes[i - 1].id}`).toBe(true);
    }
    // The edges that join one row to the next run backwards, and are drawn as step edges.
    const joins = r.edges.filter((e) => r.positions.get(e.target)!.x < r.positions.get(e.source)!.x);
    expect(joins.length).toBeGreaterThan(5);
    expect(joins.every((e) => e.type === 'smoothstep')).toBe(true);
  });

  it('places a condition’s targets in the order of its handles, with no crossing edges', async () => {
    const branches = [
      { id: 'b1', label: 'one' },
      { id: 'b2', label: 'two' },
      { id: 'b3', label: 'three' },
    ];
    const nodes = [
      node('start', 'start'),
      node('cond', 'condition', { branches }),
      // Stored in the opposite order, and each target wired to the "wrong" handle by its name.
      node('t4', 'template'),
      node('t3', 'template'),
      node('t2', 'template'),
      node('t1', 'template'),
      node('end', 'end'),
    ];
    const edges = [
      edge('start', 'cond'),
      edge('cond', 't4', 'else'),
      edge('cond', 't3', 'b3'),
      edge('cond', 't2', 'b2'),
      edge('cond', 't1', 'b1'),
      ...['t1', 't2', 't3', 't4'].map((t) => edge(t, 'end')),
    ];
    const r = await autoLayout(nodes, edges, types);
    const y = (id: string) => r.positions.get(id)!.y;
    // Handle order on the card (top to bottom): b1, b2, b3, else.
    expect(y('t1')).toBeLessThan(y('t2'));
    expect(y('t2')).toBeLessThan(y('t3'));
    expect(y('t3')).toBeLessThan(y('t4'));
    const branchEdges = edges.filter((e) => e.source === 'cond').map((e) => r.routes.get(e.id)!);
    for (let i = 0; i < branchEdges.length; i++)
      for (let j = i + 1; j < branchEdges.length; j++)
        expect(routesCross(branchEdges[i], branchEdges[j]), `branch edges ${i} and ${j} cross`).toBe(false);
    expectNoOverlap(r);
  });

  it('draws a loop’s closing edge as a back edge, with the body between the loop and its end', async () => {
    const nodes = [
      node('start', 'start'),
      node('end', 'end'),
      node('b2', 'template'),
      node('b1', 'template'),
      node('loop', 'loop'),
    ];
    const edges = [
      edge('start', 'loop'),
      edge('b2', 'loop'), // closes the loop
      edge('loop', 'b1', 'body'),
      edge('b1', 'b2'),
      edge('loop', 'end', 'done'),
    ];
    const r = await autoLayout(nodes, edges, types);
    const x = (id: string) => r.positions.get(id)!.x;
    expect(x('start')).toBeLessThan(x('loop'));
    expect(x('loop')).toBeLessThan(x('b1'));
    expect(x('b1')).toBeLessThan(x('b2'));
    const back = r.edges.find((e) => e.source === 'b2' && e.target === 'loop')!;
    expect(back.type).toBe('smoothstep');
    // ELK routed it back from the body's right side to the loop's left side, around the cards.
    const route = r.routes.get(back.id)!;
    expect(route[0].x).toBeGreaterThan(route[route.length - 1].x);
    for (const e of r.edges.filter((e) => e !== back)) expect(e.type, e.id).toBeUndefined();
    expectNoOverlap(r);
  });

  it('ranks nodes by longest path from start, ignoring the edge that closes a cycle', async () => {
    const nodes = [node('end', 'end'), node('b', 'template'), node('a', 'template'), node('start', 'start')];
    const edges = [edge('start', 'a'), edge('a', 'b'), edge('start', 'b'), edge('b', 'end'), edge('b', 'a')];
    const r = await autoLayout(nodes, edges, types);
    const x = (id: string) => r.positions.get(id)!.x;
    expect(x('start')).toBeLessThan(x('a'));
    expect(x('a')).toBeLessThan(x('b'));
    expect(x('b')).toBeLessThan(x('end'));
  });

  it('is one undo step in the editor, and undo puts every node back', async () => {
    const { nodes, edges } = chain(20);
    const graph = {
      nodes: nodes.map((n, i) => ({ id: n.id, type: n.type!, position: { x: i * 7, y: 0 }, data: n.data })),
      edges: edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
    };
    const wf = {
      id: 'w',
      name: 'w',
      description: '',
      engine: 'auto' as const,
      revision: 1,
      graph,
      createdAt: '',
      updatedAt: '',
    };
    const store = new EditorStore([...types.values()], wf);
    try {
      const before = store.state.nodes.map((n) => n.position);
      await store.autoLayout();
      expect(store.state.canUndo).toBe(true);
      expect(store.state.nodes.map((n) => n.position)).not.toEqual(before);
      expect(store.state.edges.some((e) => e.type === 'smoothstep')).toBe(true); // 20 cards wrap into rows
      store.undo();
      expect(store.state.nodes.map((n) => n.position)).toEqual(before);
      expect(store.state.edges.some((e) => e.type)).toBe(false);
      expect(store.state.canUndo).toBe(false);
    } finally {
      store.dispose();
    }
  });

  it('restores forward edges to the plain style after a node is moved out of a loop', async () => {
    const { nodes, edges } = chain(4);
    const styled = edges.map((e) => ({ ...e, type: 'smoothstep', pathOptions: { offset: 16 } }) as FlowEdge);
    const r = await autoLayout(nodes, styled, types);
    for (const e of r.edges) {
      expect(e.type).toBeUndefined();
      expect('pathOptions' in e).toBe(false);
    }
  });
});
