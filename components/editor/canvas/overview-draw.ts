/**
 * Draws the overview on a 2D canvas: the node cards React Flow does not draw (out of their turn, or the view too far
 * out to read them), each as its frame, border colour and category chip, with its title where the zoom makes it more
 * than a smear; and every edge React Flow does not draw, with React Flow's own curves, under the real cards. The
 * whole scene is a dozen fills and strokes and one text call per node in view, whatever the graph's size.
 */
import { getSmoothStepPath, Position, type InternalNode } from '@xyflow/react';
import type { FlowEdge } from '../graph-model';
import type { Anchor } from './card-geometry';
import { overlaps, viewRect, type Rect, type SceneNode, type Transform } from './overview-scene';

export interface DrawInput {
  scene: readonly SceneNode[];
  byId: ReadonlyMap<string, SceneNode>;
  /** Nodes with a real card: React Flow draws them, and the edges between two of them. */
  cards: ReadonlySet<string>;
  edges: readonly FlowEdge[];
  /** React Flow's nodes: the handle bounds it measured, where it has. */
  lookup: ReadonlyMap<string, InternalNode>;
  transform: Transform;
  width: number;
  height: number;
  dpr: number;
}

const EDGE_STROKE = '#b1b1b7';
const SELECTED_RING = '#6366f1';
const SELECTED_EDGE = '#4f46e5';
const TITLE_FILL = '#18181b';
const TITLE_FONT = '600 13px ui-sans-serif, system-ui, sans-serif';
const BADGE_FONT = 'bold 10px ui-sans-serif, system-ui, sans-serif';
/** The card's colours for them: red-600, violet-600. */
const PROBLEM_BADGE = '#dc2626';
const BREAKPOINT = '#dc2626';
const PINNED = '#7c3aed';
/** Below this zoom a title is under 2 px tall: not drawn. */
const TITLE_ZOOM = 0.15;
/** React Flow's bezier curvature. */
const CURVATURE = 0.25;

/** How far React Flow's bezier control points reach out of a handle (`calculateControlOffset`). */
export function controlOffset(dx: number): number {
  return dx >= 0 ? 0.5 * dx : CURVATURE * 25 * Math.sqrt(-dx);
}

/**
 * Where an edge meets a node, in flow coordinates: the outer side of the handle React Flow measured, or of the one
 * the card's fixed geometry puts there; the first handle of its side when the named one is not found.
 */
export function edgeEnd(
  node: SceneNode,
  internal: InternalNode | undefined,
  side: 'source' | 'target',
  handleId: string | null | undefined,
): { x: number; y: number } | null {
  const measured = internal?.internals.handleBounds?.[side];
  if (measured?.length) {
    const h = (handleId != null && measured.find((x) => x.id === handleId)) || measured[0];
    const { x, y } = internal!.internals.positionAbsolute;
    return { x: x + h.x + (side === 'source' ? h.width : 0), y: y + h.y + h.height / 2 };
  }
  const anchors: Anchor[] =
    side === 'source' ? node.shape.outputs : node.shape.input ? [node.shape.input] : node.shape.outputs;
  if (!anchors.length) return null;
  const a = (handleId != null && anchors.find((x) => x.id === handleId)) || anchors[0];
  return { x: node.x + a.x, y: node.y + a.y };
}

/** An edge the overview draws, with where it leaves its source and meets its target. */
export type DrawnEdge = [FlowEdge, { x: number; y: number }, { x: number; y: number }];

/** The edges the overview draws, for those that may cross the view. */
function overviewEdges(input: DrawInput, view: Rect): DrawnEdge[] {
  const out: DrawnEdge[] = [];
  for (const e of input.edges) {
    if (input.cards.has(e.source) && input.cards.has(e.target)) continue;
    const s = input.byId.get(e.source);
    const t = input.byId.get(e.target);
    if (!s || !t) continue;
    // A backwards curve loops out of its ends by its control offset (a smooth step by its own offset, under 100).
    const reach = Math.max(controlOffset(t.x - s.x - s.shape.width), 100);
    const left = Math.min(s.x, t.x) - reach;
    const top = Math.min(s.y, t.y) - reach;
    const right = Math.max(s.x + s.shape.width, t.x + t.shape.width) + reach;
    const bottom = Math.max(s.y + s.shape.height, t.y + t.shape.height) + reach;
    if (left >= view.x + view.width || right <= view.x || top >= view.y + view.height || bottom <= view.y) continue;
    const a = edgeEnd(s, input.lookup.get(e.source), 'source', e.sourceHandle);
    const b = edgeEnd(t, input.lookup.get(e.target), 'target', e.targetHandle);
    if (a && b) out.push([e, a, b]);
  }
  return out;
}

function smoothStep(e: FlowEdge, a: { x: number; y: number }, b: { x: number; y: number }): string | null {
  if (e.type !== 'smoothstep' && e.type !== 'step') return null;
  const options = (e as { pathOptions?: { offset?: number; stepPosition?: number } }).pathOptions;
  return getSmoothStepPath({
    sourceX: a.x,
    sourceY: a.y,
    sourcePosition: Position.Right,
    targetX: b.x,
    targetY: b.y,
    targetPosition: Position.Left,
    borderRadius: e.type === 'step' ? 0 : undefined,
    offset: options?.offset,
    stepPosition: options?.stepPosition,
  })[0];
}

/** React Flow's bezier from a source handle to a target handle, traced on a context's path or a Path2D. */
function traceBezier(to: CanvasPath, a: { x: number; y: number }, b: { x: number; y: number }) {
  const off = controlOffset(b.x - a.x);
  to.moveTo(a.x, a.y);
  to.bezierCurveTo(a.x + off, a.y, b.x - off, b.y, b.x, b.y);
}

/** One edge as a path of its own (to stroke it selected, or to hit-test it). */
export function edgePath([e, a, b]: DrawnEdge): Path2D {
  const step = smoothStep(e, a, b);
  if (step) return new Path2D(step);
  const path = new Path2D();
  traceBezier(path, a, b);
  return path;
}

/** Draws in flow coordinates: the view's pan and zoom, at the device's pixel ratio. */
export function setViewTransform(
  ctx: CanvasRenderingContext2D,
  { transform, dpr }: Pick<DrawnFrame, 'transform' | 'dpr'>,
) {
  const [tx, ty, zoom] = transform;
  ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * tx, dpr * ty);
}

function strokeEdges(ctx: CanvasRenderingContext2D, edges: readonly DrawnEdge[]) {
  ctx.strokeStyle = EDGE_STROKE;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  const steps: string[] = [];
  for (const [e, a, b] of edges) {
    const step = smoothStep(e, a, b);
    if (step) steps.push(step);
    else traceBezier(ctx, a, b);
  }
  ctx.stroke();
  for (const d of steps) ctx.stroke(new Path2D(d));
  // Selected edges as React Flow draws them (app/globals.css: indigo, 2 px).
  const selected = edges.filter(([e]) => e.selected);
  if (!selected.length) return;
  ctx.strokeStyle = SELECTED_EDGE;
  ctx.lineWidth = 2;
  for (const edge of selected) ctx.stroke(edgePath(edge));
}

/** The nodes by a key (one fill or stroke per colour). */
function groupBy(nodes: readonly SceneNode[], key: (n: SceneNode) => string): SceneNode[][] {
  const groups = new Map<string, SceneNode[]>();
  for (const n of nodes) {
    const k = key(n);
    const list = groups.get(k);
    if (list) list.push(n);
    else groups.set(k, [n]);
  }
  return [...groups.values()];
}

/** The cards' frames as one path, `inset` inside them (outside when negative). */
function frames(nodes: readonly SceneNode[], inset: number, radius: number): Path2D {
  const path = new Path2D();
  for (const n of nodes)
    path.roundRect(n.x + inset, n.y + inset, n.shape.width - 2 * inset, n.shape.height - 2 * inset, radius);
  return path;
}

function fillCards(ctx: CanvasRenderingContext2D, nodes: readonly SceneNode[], zoom: number) {
  ctx.fillStyle = '#ffffff';
  ctx.fill(frames(nodes, 0, 8));
  ctx.lineWidth = 2;
  for (const group of groupBy(nodes, (n) => `${n.stroke} ${n.dashed}`)) {
    ctx.setLineDash(group[0].dashed ? [4, 3] : []);
    ctx.strokeStyle = group[0].stroke;
    ctx.stroke(frames(group, 1, 7));
  }
  ctx.setLineDash([]);
  const selected = nodes.filter((n) => n.selected);
  if (selected.length) {
    ctx.strokeStyle = SELECTED_RING;
    ctx.stroke(frames(selected, -3, 11));
  }
  for (const group of groupBy(nodes, (n) => n.chip)) {
    const chips = new Path2D();
    for (const n of group) chips.roundRect(n.x + 12, n.y + 13, 24, 24, 6);
    ctx.fillStyle = group[0].chip;
    ctx.fill(chips);
  }
  drawMarks(ctx, nodes);
  if (zoom < TITLE_ZOOM) return;
  ctx.fillStyle = TITLE_FILL;
  ctx.font = TITLE_FONT;
  ctx.textBaseline = 'middle';
  for (const n of nodes)
    ctx.fillText(n.title, n.x + 44, n.y + 19, n.shape.width - 56 - (n.breakpoint || n.pinned ? 24 : 0));
  const flagged = nodes.filter((n) => n.problems > 0);
  if (!flagged.length) return;
  ctx.fillStyle = '#ffffff';
  ctx.font = BADGE_FONT;
  ctx.textAlign = 'center';
  for (const n of flagged) ctx.fillText(String(n.problems), n.x + 2, n.y + 2);
  ctx.textAlign = 'start';
}

/** What a card shows besides its title, where it shows it: the problem badge, the breakpoint and pinned marks. */
function drawMarks(ctx: CanvasRenderingContext2D, nodes: readonly SceneNode[]) {
  const circles = (color: string, list: readonly SceneNode[], at: (n: SceneNode) => [number, number, number]) => {
    if (!list.length) return;
    const path = new Path2D();
    for (const n of list) {
      const [x, y, r] = at(n);
      path.moveTo(x + r, y);
      path.arc(x, y, r, 0, Math.PI * 2);
    }
    ctx.fillStyle = color;
    ctx.fill(path);
  };
  circles(
    PROBLEM_BADGE,
    nodes.filter((n) => n.problems > 0),
    (n) => [n.x + 2, n.y + 2, 10],
  );
  circles(
    BREAKPOINT,
    nodes.filter((n) => n.breakpoint),
    (n) => [n.x + n.shape.width - 17, n.y + 25, 5],
  );
  const pinnedX = (n: SceneNode) => n.x + n.shape.width - (n.breakpoint ? 31 : 17);
  circles(
    PINNED,
    nodes.filter((n) => n.pinned),
    (n) => [pinnedX(n), n.y + 25, 5],
  );
}

/** What a frame showed: the view, and the scene entries and edge ends it drew. */
export interface DrawnFrame {
  transform: Transform;
  width: number;
  height: number;
  dpr: number;
  nodes: SceneNode[];
  edges: DrawnEdge[];
}

const sameEdge = ([e, a, b]: DrawnEdge, [f, c, d]: DrawnEdge) =>
  e === f && a.x === c.x && a.y === c.y && b.x === d.x && b.y === d.y;

/** Whether two frames show the same view of the same edges and nodes, each node perhaps restyled in place. */
function sameLayout(a: DrawnFrame, b: DrawnFrame): boolean {
  return (
    a.transform.every((v, i) => v === b.transform[i]) &&
    a.width === b.width &&
    a.height === b.height &&
    a.dpr === b.dpr &&
    a.nodes.length === b.nodes.length &&
    a.nodes.every((n, i) => n.id === b.nodes[i].id) &&
    a.edges.length === b.edges.length &&
    a.edges.every((e, i) => sameEdge(e, b.edges[i]))
  );
}

/**
 * A node whose new look paints over its old one without clearing: the same place, shape, title and marks, only the
 * border (a run status) changed. What it draws outside its frame — the selection ring, the problem badge — did not.
 */
const restyledInPlace = (now: SceneNode, before: SceneNode) =>
  now.x === before.x &&
  now.y === before.y &&
  now.shape === before.shape &&
  now.title === before.title &&
  now.chip === before.chip &&
  now.selected === before.selected &&
  now.problems === before.problems &&
  now.breakpoint === before.breakpoint &&
  now.pinned === before.pinned;

/**
 * Draws one frame and returns what it shows. Against what the last frame showed (`last`): nothing is drawn when it
 * is the same — a trace event for a node that has a card, a blank canvas staying blank — and only the restyled
 * nodes are painted over when nothing else changed (a live run zoomed out: a few status colours a frame, not 500
 * cards). A full redraw of a full-size canvas is most of such a frame.
 */
export function drawOverview(ctx: CanvasRenderingContext2D, input: DrawInput, last?: DrawnFrame): DrawnFrame {
  const { transform, width, height, dpr } = input;
  const view = viewRect(transform, width, height);
  const frame: DrawnFrame = {
    transform: [...transform],
    width,
    height,
    dpr,
    edges: overviewEdges(input, view),
    nodes: input.scene.filter((n) => !input.cards.has(n.id) && overlaps(n, view)),
  };
  const zoom = transform[2];
  const blank = (f: DrawnFrame) => !f.nodes.length && !f.edges.length;
  if (last && blank(frame) && blank(last)) return frame;
  if (last && sameLayout(frame, last)) {
    const changed: SceneNode[] = [];
    let inPlace = true;
    frame.nodes.forEach((n, i) => {
      if (n === last.nodes[i]) return;
      changed.push(n);
      inPlace &&= restyledInPlace(n, last.nodes[i]);
    });
    if (inPlace) {
      if (!changed.length) return frame;
      setViewTransform(ctx, frame);
      fillCards(ctx, changed, zoom);
      return frame;
    }
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  setViewTransform(ctx, frame);
  strokeEdges(ctx, frame.edges);
  fillCards(ctx, frame.nodes, zoom);
  return frame;
}
