/**
 * The overview's state outside React: the scene (every node's card shape, status and selection), which nodes have
 * a real card, and one animation frame that brings the cards towards the ones in view (a few a frame) and redraws
 * the canvas. The canvas (Canvas in canvas.tsx) hides the other nodes from React Flow and hands it only the edges
 * between two cards; the overview draws the rest.
 */
import type { InternalNode, ReactFlowState, Viewport } from '@xyflow/react';
import type { EditorState, EditorStore } from '../editor-store';
import type { FlowEdge, FlowNode } from '../graph-model';
import type { RunState, RunStore } from '../run/run-store';
import { cardShape } from './card-geometry';
import { drawOverview, edgePath, setViewTransform, type DrawnFrame } from './overview-draw';
import {
  OPENING_BUDGET,
  REVEAL_BUDGET,
  revealStep,
  sceneNode,
  settled,
  wantedCards,
  type SceneNode,
  type Transform,
} from './overview-scene';

/** The part of React Flow's store the overview reads (`useStoreApi()`). */
export interface FlowStoreApi {
  getState(): ReactFlowState;
  subscribe(listener: (state: ReactFlowState, prev: ReactFlowState) => void): () => void;
}

/** Sets a data attribute only when it changes (a write invalidates the element's style). */
function setData(el: HTMLElement, key: string, value: string) {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}

/** How wide an edge is to the pointer, in screen pixels. */
const EDGE_HIT_PX = 10;

/** Below this zoom the cards draw no shadow. */
const SHADOW_ZOOM = 0.6;

export class Overview {
  private cards: ReadonlySet<string> = new Set();
  private readonly cardListeners = new Set<() => void>();
  private sceneInputs: [EditorState['nodes'], RunState['nodes'], EditorState['problemsByNode']] | null = null;
  /** Each node's scene entry, kept while the node, its run state and its problems are the same objects. */
  private readonly drawn = new WeakMap<FlowNode, { run: unknown; problems: unknown; scene: SceneNode }>();
  private sceneNodes: SceneNode[] = [];
  private sceneById = new Map<string, SceneNode>();
  private flow: FlowStoreApi | null = null;
  private canvas: HTMLCanvasElement | null = null;
  private frame = 0;
  /** What the canvas shows (undefined: it must be drawn). */
  private shown: DrawnFrame | undefined;
  /** The shown edges as paths, made on the first hit-test of a frame. */
  private edgeHits: { frame: DrawnFrame; paths: Path2D[] } | null = null;
  private wanted: {
    nodes: EditorState['nodes'];
    transform: ReactFlowState['transform'];
    width: number;
    height: number;
    ids: string[];
  } | null = null;

  constructor(
    private readonly editor: EditorStore,
    private readonly runs: RunStore,
  ) {}

  /** The nodes that have a real card (a stable reference until they change, for useSyncExternalStore). */
  getCards = (): ReadonlySet<string> => this.cards;

  subscribeCards = (listener: () => void) => {
    this.cardListeners.add(listener);
    return () => void this.cardListeners.delete(listener);
  };

  get scene(): readonly SceneNode[] {
    this.refreshScene();
    return this.sceneNodes;
  }

  /** Before React Flow mounts: the cards in the opening view, as many as a first frame takes. */
  open(viewport: Viewport | undefined, pane: { width: number; height: number }) {
    if (!viewport) return;
    const wanted = wantedCards(this.scene, [viewport.x, viewport.y, viewport.zoom], pane.width, pane.height);
    const next = revealStep(this.cards, wanted, OPENING_BUDGET);
    if (next) this.setCards(next);
  }

  /** Draws on this canvas and follows React Flow's viewport; returns the detach. */
  attach(flow: FlowStoreApi, canvas: HTMLCanvasElement): () => void {
    this.flow = flow;
    this.canvas = canvas;
    const unsubscribe = [
      flow.subscribe((s, p) => {
        if (s.transform !== p.transform || s.width !== p.width || s.height !== p.height) this.schedule();
      }),
      this.editor.store.subscribe(() => this.schedule()),
      this.runs.store.subscribe(() => this.schedule()),
    ];
    this.schedule();
    return () => {
      unsubscribe.forEach((u) => u());
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.flow = null;
      this.canvas = null;
    };
  }

  /** The drawn edge within a few pixels of a screen point (a click on it selects it), or undefined. */
  edgeAt(clientX: number, clientY: number): FlowEdge | undefined {
    const frame = this.shown;
    const ctx = this.canvas?.getContext('2d');
    if (!frame?.edges.length || !ctx) return undefined;
    if (this.edgeHits?.frame !== frame) this.edgeHits = { frame, paths: frame.edges.map(edgePath) };
    const r = this.canvas!.getBoundingClientRect();
    ctx.save();
    setViewTransform(ctx, frame);
    ctx.lineWidth = EDGE_HIT_PX / frame.transform[2];
    const x = (clientX - r.left) * frame.dpr;
    const y = (clientY - r.top) * frame.dpr;
    const i = this.edgeHits.paths.findIndex((path) => ctx.isPointInStroke(path, x, y));
    ctx.restore();
    return i >= 0 ? frame.edges[i][0] : undefined;
  }

  schedule() {
    if (!this.frame && this.flow) this.frame = requestAnimationFrame(this.tick);
  }

  private tick = () => {
    this.frame = 0;
    const flow = this.flow?.getState();
    if (!flow || !this.canvas) return;
    const wanted = this.wantedNow(flow);
    const next = revealStep(this.cards, wanted, REVEAL_BUDGET);
    if (next) this.setCards(next);
    const done = settled(this.cards, wanted);
    this.draw(flow, done);
    if (!done) this.schedule();
  };

  /** The cards wanted: the same while the nodes and the view are (a trace event changes neither). */
  private wantedNow(flow: ReactFlowState): string[] {
    const { nodes } = this.editor.state;
    const w = this.wanted;
    if (w && w.nodes === nodes && w.transform === flow.transform && w.width === flow.width && w.height === flow.height)
      return w.ids;
    const ids = wantedCards(this.scene, flow.transform as Transform, flow.width, flow.height);
    this.wanted = { nodes, transform: flow.transform, width: flow.width, height: flow.height, ids };
    return ids;
  }

  private draw(flow: ReactFlowState, done: boolean) {
    const canvas = this.canvas!;
    const dpr = window.devicePixelRatio || 1;
    const width = Math.round(flow.width * dpr);
    const height = Math.round(flow.height * dpr);
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      this.shown = undefined;
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    this.shown = drawOverview(
      ctx,
      {
        scene: this.sceneNodes,
        byId: this.sceneById,
        cards: this.cards,
        edges: this.editor.state.edges,
        lookup: flow.nodeLookup as ReadonlyMap<string, InternalNode>,
        transform: flow.transform as Transform,
        width: flow.width,
        height: flow.height,
        dpr,
      },
      this.shown,
    );
    // Zoomed out, the cards' shadows go (app/globals.css): a hundred blurred shadows are most of a frame's raster.
    flow.domNode?.classList.toggle('pf-zoomed-out', flow.transform[2] < SHADOW_ZOOM);
    // For tests and the editor bench: how many nodes the overview drew, and whether every card in view is mounted.
    setData(canvas, 'drawn', String(this.shown.nodes.length));
    setData(canvas, 'cards', String(this.cards.size));
    setData(canvas, 'settled', String(done));
  }

  private setCards(next: ReadonlySet<string>) {
    this.cards = next;
    for (const l of [...this.cardListeners]) l();
  }

  private refreshScene() {
    const { nodes, problemsByNode } = this.editor.state;
    const runNodes = this.runs.state.nodes;
    const inputs = this.sceneInputs;
    if (inputs && inputs[0] === nodes && inputs[1] === runNodes && inputs[2] === problemsByNode) return;
    const sameNodes = inputs?.[0] === nodes;
    this.sceneInputs = [nodes, runNodes, problemsByNode];
    const scene = (n: FlowNode) => {
      const run = runNodes.get(n.id);
      const problems = problemsByNode.get(n.id);
      const kept = this.drawn.get(n);
      if (kept && kept.run === run && kept.problems === problems) return kept.scene;
      const type = this.editor.types.get(n.type ?? '');
      const entry = sceneNode(n, type, kept?.scene.shape ?? cardShape(n, type), run, problems?.length ?? 0);
      this.drawn.set(n, { run, problems, scene: entry });
      return entry;
    };
    if (sameNodes) {
      // A trace event or new problems: the same nodes in the same order, a few entries replaced in place (a run
      // streams one store update a frame, and a fresh 500-entry scene each time is garbage to collect).
      nodes.forEach((n, i) => {
        const entry = scene(n);
        if (this.sceneNodes[i] === entry) return;
        this.sceneNodes[i] = entry;
        this.sceneById.set(n.id, entry);
      });
      return;
    }
    this.sceneNodes = nodes.map(scene);
    this.sceneById = new Map(this.sceneNodes.map((n) => [n.id, n]));
  }
}
