/**
 * Auto-layout with ELK's layered algorithm (elkjs, loaded on first use so the editor does not ship it up front).
 *
 * - **Direction.** Ranks always run left to right: every card has its input on the left and its outputs on the
 *   right, so a top-down layout would make every edge leave sideways and curl back. The graph's shape decides
 *   instead whether the ranks are **wrapped into rows**: a flow whose single row would need a zoom below 0.5 on a
 *   16:10 screen (a long chain) is cut into rows stacked top to bottom, aiming at the screen's aspect ratio
 *   (ELK's `wrapping.strategy: MULTI_EDGE`, which also cuts where several parallel edges cross).
 * - **Branches in handle order.** Each card's handles are ELK ports at the card's real handle positions
 *   (`portConstraints: FIXED_POS`), in the order the node lists its outputs, so a condition's targets are
 *   placed in the order of its branches and their edges do not cross.
 * - **Loops as back edges.** Nodes are given in depth-first order from the start node and cycles are broken
 *   depth-first, so the edge that closes a loop is the one reversed: the loop's body is laid out after the loop
 *   node and the closing edge runs back. Edges that end up running backwards (loop closers, the edges that join
 *   wrapped rows) are drawn as step edges along the channel ELK routed them through, instead of a long diagonal.
 */
import type { NodeTypeInfo } from '@/components/api/types';
import type { ElkExtendedEdge, ElkNode, ElkPoint, ElkPort, LayoutOptions } from 'elkjs/lib/elk-api';
import { CARD_HEIGHT, CARD_WIDTH, cardShape } from './canvas/card-geometry';
import type { FlowEdge, FlowNode } from './graph-model';
import { depthFirstOrder, estimateRow } from './layout-shape';

/** The screen a layout is meant to be read on: 16:10, the smallest laptop size the editor is built for. */
export const REFERENCE_VIEWPORT = { width: 1440, height: 900 };
/** Below this zoom card text is not readable; a single row that needs less is wrapped. */
export const READABLE_ZOOM = 0.5;
/** A wrapped flow gets the fewest rows that fit the reference screen at this zoom (or as many as fit it best). */
const COMFORTABLE_ZOOM = 0.8;

const LAYER_GAP = 48;
const NODE_GAP = 28;
/** Between wrapped rows: room for the edges that join one row to the next (ELK's edge spacing plus 4). */
const ROW_GAP = 28;

export interface LayoutResult {
  /** Top-left corner of every laid-out node (React Flow's `position`). */
  positions: Map<string, { x: number; y: number }>;
  /** The edges, with the step style set on those that run backwards and removed from those that no longer do. */
  edges: FlowEdge[];
  direction: 'RIGHT';
  /** Whether the ranks were wrapped into rows. */
  wrapped: boolean;
  /** ELK's route of every edge (absolute points, source to target), for checks. */
  routes: Map<string, ElkPoint[]>;
}

interface ElkLike {
  layout(graph: ElkNode): Promise<ElkNode>;
}
let elkPromise: Promise<ElkLike> | undefined;
function elk(): Promise<ElkLike> {
  elkPromise ??= import('elkjs/lib/elk.bundled.js').then((m) => new m.default());
  return elkPromise;
}

/** A card's size: measured, or before React Flow has measured it the fixed size given (a plain card's). */
const sizeOf = (n: FlowNode, fixed = { width: CARD_WIDTH, height: CARD_HEIGHT }) => ({
  width: n.measured?.width ?? n.width ?? fixed.width,
  height: n.measured?.height ?? n.height ?? fixed.height,
});

/**
 * The ELK node of a card: an input port on the left, one port per output on the right, each at the height of its
 * handle (card-geometry.ts).
 */
function elkNode(n: FlowNode, t: NodeTypeInfo | undefined): { node: ElkNode; outPorts: Map<string, string> } {
  const shape = cardShape(n, t);
  const { width, height } = sizeOf(n, shape);
  const outputs = n.type === 'end' ? [] : shape.outputs;
  const outPorts = new Map<string, string>();
  const inY = shape.input?.y ?? shape.outputs[0]?.y ?? 0;
  const ports: ElkPort[] = [
    { id: `${n.id}\u0000in`, x: 0, y: inY, width: 0, height: 0, layoutOptions: { 'elk.port.side': 'WEST' } },
  ];
  for (const o of outputs) {
    const id = `${n.id}\u0000out\u0000${o.id}`;
    outPorts.set(o.id, id);
    ports.push({ id, x: width, y: o.y, width: 0, height: 0, layoutOptions: { 'elk.port.side': 'EAST' } });
  }
  const layoutOptions: LayoutOptions = { 'elk.portConstraints': 'FIXED_POS' };
  if (n.type === 'start') layoutOptions['elk.layered.layering.layerConstraint'] = 'FIRST';
  if (n.type === 'end') layoutOptions['elk.layered.layering.layerConstraint'] = 'LAST';
  return { node: { id: n.id, width, height, ports, layoutOptions }, outPorts };
}

/**
 * How to wrap: undefined when one row fits the screen at a readable zoom, else the aspect ratio (width / height) to
 * ask ELK for — that of the fewest rows that fit at a comfortable zoom, or the screen's own when none do (a very
 * long flow: then the rows fill the screen's shape, which gives the largest zoom).
 */
export function wrapAspect(row: { width: number; height: number }, viewport: { width: number; height: number }) {
  const zoomFor = (rows: number) =>
    Math.min(viewport.width / (row.width / rows), viewport.height / (rows * (row.height + ROW_GAP) - ROW_GAP));
  if (zoomFor(1) >= READABLE_ZOOM) return undefined;
  for (let rows = 2; zoomFor(rows) > zoomFor(rows - 1); rows++) {
    if (zoomFor(rows) >= COMFORTABLE_ZOOM) return row.width / rows / (rows * (row.height + ROW_GAP) - ROW_GAP);
  }
  return viewport.width / viewport.height;
}

function layoutOptions(aspect: number | undefined): LayoutOptions {
  const options: LayoutOptions = {
    'elk.algorithm': 'layered',
    'elk.direction': 'RIGHT',
    'elk.edgeRouting': 'ORTHOGONAL',
    'elk.layered.cycleBreaking.strategy': 'DEPTH_FIRST',
    'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    'elk.layered.spacing.nodeNodeBetweenLayers': String(LAYER_GAP),
    'elk.spacing.nodeNode': String(NODE_GAP),
    'elk.spacing.componentComponent': String(NODE_GAP * 2),
  };
  if (aspect !== undefined) {
    options['elk.layered.wrapping.strategy'] = 'MULTI_EDGE';
    options['elk.layered.wrapping.additionalEdgeSpacing'] = '4';
    options['elk.aspectRatio'] = aspect.toFixed(2);
  }
  return options;
}

/**
 * Lays the graph out (see the module comment). Nodes keep their ids; only positions and the style of
 * backward-running edges change. Never rejects for a graph the editor can hold (unknown types get one output).
 */
export async function autoLayout(
  nodes: FlowNode[],
  edges: FlowEdge[],
  types: Map<string, NodeTypeInfo>,
  viewport = REFERENCE_VIEWPORT,
): Promise<LayoutResult> {
  const ordered = depthFirstOrder(nodes, edges, types);
  const outPorts = new Map<string, Map<string, string>>();
  const children = ordered.map((n) => {
    const built = elkNode(n, types.get(n.type ?? ''));
    outPorts.set(n.id, built.outPorts);
    return built.node;
  });
  const known = new Set(nodes.map((n) => n.id));
  const elkEdges: ElkExtendedEdge[] = [];
  edges.forEach((e, i) => {
    if (!known.has(e.source) || !known.has(e.target) || e.source === e.target) return;
    const ports = outPorts.get(e.source)!;
    const port = (e.sourceHandle != null && ports.get(e.sourceHandle)) || ports.values().next().value;
    if (!port) return; // an edge out of a node without outputs (an invalid graph): nothing to route it from
    elkEdges.push({ id: `e${i}`, sources: [port], targets: [`${e.target}\u0000in`] });
  });

  const aspect = wrapAspect(
    estimateRow(nodes, edges, (n) => sizeOf(n), { layer: LAYER_GAP, node: NODE_GAP }),
    viewport,
  );
  const engine = await elk();
  const laid = await engine.layout({ id: 'root', layoutOptions: layoutOptions(aspect), children, edges: elkEdges });

  const positions = new Map<string, { x: number; y: number }>();
  for (const c of laid.children ?? []) positions.set(c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) });
  const routes = new Map<string, ElkPoint[]>();
  for (const e of (laid.edges ?? []) as ElkExtendedEdge[]) {
    const points = (e.sections ?? []).flatMap((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint]);
    routes.set(edges[Number(e.id.slice(1))].id, points);
  }
  const sizes = new Map(nodes.map((n) => [n.id, sizeOf(n)]));
  return {
    positions,
    edges: edges.map((e) => styleEdge(e, positions, sizes, routes.get(e.id))),
    direction: 'RIGHT',
    wrapped: aspect !== undefined,
    routes,
  };
}

/**
 * An edge whose target now lies left of its source is drawn as a step edge through the channel ELK chose (the gap
 * between rows for a wrapped flow, below the body for a loop), so it does not cut across the cards between. The
 * step edge's bend sits at `stepPosition` of the way from source to target vertically, hence the ratio.
 */
function styleEdge(
  e: FlowEdge,
  positions: Map<string, { x: number; y: number }>,
  sizes: Map<string, { width: number; height: number }>,
  route: ElkPoint[] | undefined,
): FlowEdge {
  const s = positions.get(e.source);
  const t = positions.get(e.target);
  if (!s || !t || !route?.length) return e;
  const backwards = t.x < s.x + sizes.get(e.source)!.width;
  if (!backwards) {
    if (e.type !== 'smoothstep') return e;
    const plain: FlowEdge = { ...e };
    delete plain.type;
    delete (plain as { pathOptions?: unknown }).pathOptions;
    return plain;
  }
  const sy = route[0].y;
  const ty = route[route.length - 1].y;
  // The channel: the longest horizontal stretch of the route that runs backwards.
  let channel: number | undefined;
  let longest = 0;
  for (let i = 1; i < route.length; i++) {
    const a = route[i - 1];
    const b = route[i];
    if (a.y === b.y && a.x - b.x > longest) {
      longest = a.x - b.x;
      channel = a.y;
    }
  }
  const pathOptions: { offset: number; stepPosition?: number } = { offset: 16 };
  if (channel !== undefined && Math.abs(ty - sy) >= 1) pathOptions.stepPosition = (channel - sy) / (ty - sy);
  return { ...e, type: 'smoothstep', pathOptions } as FlowEdge;
}

/**
 * The graph with a layout applied: positions and edge styles only, onto the nodes and edges as they are now (the
 * layout is async; a node added or an edge selected meanwhile keeps its state, a node added keeps its position).
 */
export function applyLayout(
  nodes: FlowNode[],
  edges: FlowEdge[],
  layout: LayoutResult,
): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const styled = new Map(layout.edges.map((e) => [e.id, e]));
  return {
    nodes: nodes.map((n) => {
      const p = layout.positions.get(n.id);
      return p ? { ...n, position: p } : n;
    }),
    edges: edges.map((e) => {
      const s = styled.get(e.id);
      if (!s || (s.type === e.type && !('pathOptions' in s) && !('pathOptions' in e))) return e;
      const next: FlowEdge & { pathOptions?: unknown } = { ...e };
      delete next.type;
      delete next.pathOptions;
      if (s.type) next.type = s.type;
      if ('pathOptions' in s) next.pathOptions = (s as { pathOptions?: unknown }).pathOptions;
      return next;
    }),
  };
}
