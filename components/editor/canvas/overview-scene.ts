/**
 * What the overview (overview-draw.ts) draws and what it answers to the pointer (overview-pointer.ts): every node
 * as a plain card shape in flow coordinates, which nodes get a real card (React Flow's DOM node) and which edges
 * React Flow draws. Only the nodes in view get a card, and zoomed out past FAR_ZOOM none do: a card is a React
 * component, a DOM subtree, store subscriptions and a paint layer, and a 500-node graph seen whole would mount
 * hundreds at once. Cards come into view a few per frame (`revealStep`); until their turn, and whenever they are
 * out of view or the view is too far out to read them, the overview draws them.
 */
import type { NodeTypeInfo } from '@/components/api/types';
import { STATUS_STYLE } from '@/components/ui/status';
import type { FlowEdge, FlowNode } from '../graph-model';
import type { NodeRunState } from '../run/run-state';
import type { CardShape } from './card-geometry';
import { categoryStyle } from './categories';

/** Below this zoom no node has a card: 13 px text is under 4 px on screen. */
export const FAR_ZOOM = 0.3;
/**
 * New cards a frame, and cards removed a frame. Mounting a card costs 1–3 ms (React, React Flow measuring it, layout
 * and paint): 8 a frame made 20–28 ms frames while zooming out (bench/editor.bench.ts), 4 keep them under 16.
 */
export const REVEAL_BUDGET = { add: 4, remove: 30 };
/** On opening, more at once: the first frame is one long task anyway, and a small graph gets all its cards. */
export const OPENING_BUDGET = { add: 60, remove: 0 };
const PROBLEM_STROKE = '#f87171';

export interface SceneNode {
  id: string;
  x: number;
  y: number;
  shape: CardShape;
  title: string;
  /** The category chip's colour. */
  chip: string;
  /** The border's colour: the run status, or red for a problem. */
  stroke: string;
  /** Skipped in the run (a card is then dashed and faded). */
  dashed: boolean;
  /** How many problems the node has (a card shows them in a red badge). */
  problems: number;
  /** The editor-only flags a card shows in its header: a breakpoint, a pinned output. */
  breakpoint: boolean;
  pinned: boolean;
  selected: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** React Flow's viewport: [x, y, zoom]. */
export type Transform = [number, number, number];

export function sceneNode(
  node: FlowNode,
  type: NodeTypeInfo | undefined,
  shape: CardShape,
  run: NodeRunState | undefined,
  problems: number,
): SceneNode {
  const status = run?.status;
  const stroke =
    status && status !== 'pending' ? STATUS_STYLE[status].stroke : problems ? PROBLEM_STROKE : STATUS_STYLE.idle.stroke;
  return {
    id: node.id,
    x: node.position.x,
    y: node.position.y,
    shape,
    title: node.data.label || type?.label || node.type || node.id,
    chip: categoryStyle(type?.category ?? '').color,
    stroke,
    dashed: status === 'skipped',
    problems,
    breakpoint: node.data.breakpoint === true,
    pinned: node.data.pinned != null,
    selected: !!node.selected,
  };
}

/** The part of the flow in view, in flow coordinates. */
export function viewRect([tx, ty, zoom]: Transform, width: number, height: number): Rect {
  return { x: -tx / zoom, y: -ty / zoom, width: width / zoom, height: height / zoom };
}

export function overlaps(n: SceneNode, r: Rect): boolean {
  return n.x < r.x + r.width && n.x + n.shape.width > r.x && n.y < r.y + r.height && n.y + n.shape.height > r.y;
}

/** The top-most node under a flow point (later nodes are drawn over earlier ones). */
export function nodeAt(scene: readonly SceneNode[], p: { x: number; y: number }): SceneNode | undefined {
  for (let i = scene.length - 1; i >= 0; i--) {
    const n = scene[i];
    if (p.x >= n.x && p.x <= n.x + n.shape.width && p.y >= n.y && p.y <= n.y + n.shape.height) return n;
  }
  return undefined;
}

/** The nodes wholly inside a flow rectangle (React Flow's default selection mode). */
export function nodesInside(scene: readonly SceneNode[], r: Rect): SceneNode[] {
  return scene.filter(
    (n) => n.x >= r.x && n.y >= r.y && n.x + n.shape.width <= r.x + r.width && n.y + n.shape.height <= r.y + r.height,
  );
}

/** The nodes that should have a card: those in view, nearest the middle first; none zoomed out past FAR_ZOOM. */
export function wantedCards(scene: readonly SceneNode[], transform: Transform, width: number, height: number) {
  if (transform[2] < FAR_ZOOM || width <= 0 || height <= 0) return [];
  const view = viewRect(transform, width, height);
  const cx = view.x + view.width / 2;
  const cy = view.y + view.height / 2;
  return scene
    .filter((n) => overlaps(n, view))
    .map((n) => ({ id: n.id, d: Math.hypot(n.x + n.shape.width / 2 - cx, n.y + n.shape.height / 2 - cy) }))
    .sort((a, b) => a.d - b.d)
    .map((n) => n.id);
}

/**
 * One frame's step towards the wanted cards: up to `add` of the missing ones (in the order given) and up to
 * `remove` of those no longer wanted. Null when the cards are already the wanted ones.
 */
export function revealStep(
  current: ReadonlySet<string>,
  wanted: readonly string[],
  budget: { add: number; remove: number },
): Set<string> | null {
  const want = new Set(wanted);
  const removed = [...current].filter((id) => !want.has(id)).slice(0, budget.remove);
  const added = wanted.filter((id) => !current.has(id)).slice(0, budget.add);
  if (!removed.length && !added.length) return null;
  const next = new Set(current);
  for (const id of removed) next.delete(id);
  for (const id of added) next.add(id);
  return next;
}

/** Whether the cards are the wanted ones. */
export function settled(current: ReadonlySet<string>, wanted: readonly string[]): boolean {
  return wanted.length === current.size && wanted.every((id) => current.has(id));
}

/** React Flow draws the edges between two cards; the overview draws the rest. */
export function cardEdges(edges: FlowEdge[], cards: ReadonlySet<string>): FlowEdge[] {
  return edges.filter((e) => cards.has(e.source) && cards.has(e.target));
}
