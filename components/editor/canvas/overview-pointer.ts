/**
 * The pointer on what the overview draws (no DOM card under the pointer, so the event reaches React Flow's pane):
 * a click selects a drawn node (Ctrl/⌘ adds or removes it), a drag moves it — or the whole selection when it is part
 * of one — as one undo step, as React Flow does for its cards; a double click zooms in to it. A click on a drawn edge
 * selects it, and Delete deletes it. A Shift-drag box selects React Flow's cards inside the box, and the overview
 * adds its own. Listeners sit on React Flow's root in the capture phase, ahead of its pane (panning) and selection
 * handlers, and step aside for anything that is not drawn.
 */
import type { EdgeChange, NodeChange } from '@xyflow/react';
import type { EditorStore } from '../editor-store';
import { inTextField } from '../use-editor-shortcuts';
import type { FlowEdge, FlowNode } from '../graph-model';
import type { FlowStoreApi, Overview } from './overview-model';
import { nodeAt, nodesInside, type SceneNode } from './overview-scene';

/** React Flow's default: a press that moves less than this is a click. */
const DRAG_THRESHOLD = 3;

/**
 * Unselects every selected edge. React Flow unselects only the edges it knows of (those between two cards); the
 * overview draws and selects the others.
 */
export function unselectEdges(editor: EditorStore) {
  const changes: EdgeChange<FlowEdge>[] = editor.state.edges
    .filter((e) => e.selected)
    .map((e) => ({ type: 'select', id: e.id, selected: false }));
  if (changes.length) editor.onEdgesChange(changes);
}

interface Gesture {
  id: string;
  pointerId: number;
  x0: number;
  y0: number;
  additive: boolean;
  dragged: Array<{ id: string; x: number; y: number }> | null;
}

export function attachOverviewPointer(
  root: HTMLElement,
  overview: Overview,
  flow: FlowStoreApi,
  editor: EditorStore,
): () => void {
  let gesture: Gesture | null = null;
  let swallowClick = false;

  const drawnNodes = () => {
    const cards = overview.getCards();
    return overview.scene.filter((n) => !cards.has(n.id));
  };
  const toFlow = (clientX: number, clientY: number) => {
    const [tx, ty, zoom] = flow.getState().transform;
    const r = root.getBoundingClientRect();
    return { x: (clientX - r.left - tx) / zoom, y: (clientY - r.top - ty) / zoom };
  };
  const onPane = (e: Event) => (e.target as Element | null)?.classList?.contains('react-flow__pane') ?? false;
  const hit = (e: MouseEvent): SceneNode | undefined =>
    onPane(e) ? nodeAt(drawnNodes(), toFlow(e.clientX, e.clientY)) : undefined;

  /** Selects these nodes, and unselects the others (and every edge) unless `keepOthers`. */
  const select = (ids: ReadonlySet<string>, keepOthers: boolean) => {
    const changes: NodeChange<FlowNode>[] = [];
    for (const n of editor.state.nodes) {
      const selected = ids.has(n.id) || (keepOthers && !!n.selected);
      if (!!n.selected !== selected) changes.push({ type: 'select', id: n.id, selected });
    }
    if (changes.length) editor.onNodesChange(changes);
    if (!keepOthers) unselectEdges(editor);
  };

  /** Selects a drawn edge and unselects everything else, or with Ctrl/⌘ adds or removes it. */
  const selectEdge = (id: string, additive: boolean) => {
    if (!additive) select(new Set(), false);
    const edge = editor.state.edges.find((x) => x.id === id);
    if (edge) editor.onEdgesChange([{ type: 'select', id, selected: additive ? !edge.selected : true }]);
  };

  // Delete removes the selected edges React Flow does not know of (it deletes its own, and the selected nodes).
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.key !== 'Delete' && e.key !== 'Backspace') || inTextField(e.target)) return;
    const known = new Set(flow.getState().edges.map((x) => x.id));
    const gone: EdgeChange<FlowEdge>[] = editor.state.edges
      .filter((x) => x.selected && !known.has(x.id))
      .map((x) => ({ type: 'remove', id: x.id }));
    if (gone.length) editor.onEdgesChange(gone);
  };

  const startDrag = (g: Gesture) => {
    const node = editor.state.nodes.find((n) => n.id === g.id);
    if (!node) return;
    if (!node.selected) select(new Set([g.id]), false);
    g.dragged = editor.state.nodes
      .filter((n) => n.selected)
      .map((n) => ({ id: n.id, x: n.position.x, y: n.position.y }));
    editor.onNodeDragStart();
  };

  const move = (g: Gesture, e: PointerEvent, dragging: boolean) => {
    const zoom = flow.getState().transform[2];
    const dx = (e.clientX - g.x0) / zoom;
    const dy = (e.clientY - g.y0) / zoom;
    editor.onNodesChange(
      g.dragged!.map((d) => ({ type: 'position', id: d.id, position: { x: d.x + dx, y: d.y + dy }, dragging })),
    );
  };

  const onPointerMove = (e: PointerEvent) => {
    const g = gesture;
    if (!g || e.pointerId !== g.pointerId) return;
    if (!g.dragged) {
      if (editor.readOnly || Math.hypot(e.clientX - g.x0, e.clientY - g.y0) < DRAG_THRESHOLD) return;
      startDrag(g);
      if (!g.dragged) return;
    }
    move(g, e, true);
  };

  const onPointerUp = (e: PointerEvent) => {
    const g = gesture;
    if (!g || e.pointerId !== g.pointerId) return;
    gesture = null;
    followPointer(false);
    if (g.dragged) {
      move(g, e, false);
      editor.onNodeDragStop();
      return;
    }
    if (e.type === 'pointercancel') return;
    const node = editor.state.nodes.find((n) => n.id === g.id);
    if (!node) return;
    if (g.additive) editor.onNodesChange([{ type: 'select', id: node.id, selected: !node.selected }]);
    else select(new Set([node.id]), false);
  };

  /** While a gesture lasts, the pointer is followed over the whole window. */
  const followPointer = (on: boolean) => {
    const listeners = [
      ['pointermove', onPointerMove],
      ['pointerup', onPointerUp],
      ['pointercancel', onPointerUp],
    ] as const;
    for (const [type, listener] of listeners)
      if (on) window.addEventListener(type, listener);
      else window.removeEventListener(type, listener);
  };

  const onPointerDown = (e: PointerEvent) => {
    swallowClick = false;
    if (e.button !== 0 || !e.isPrimary || e.shiftKey || gesture) return;
    const node = hit(e);
    if (!node) {
      const edge = onPane(e) ? overview.edgeAt(e.clientX, e.clientY) : undefined;
      if (!edge) return;
      e.stopPropagation();
      e.preventDefault();
      swallowClick = true;
      selectEdge(edge.id, e.ctrlKey || e.metaKey);
      return;
    }
    e.stopPropagation();
    e.preventDefault();
    swallowClick = true;
    gesture = {
      id: node.id,
      pointerId: e.pointerId,
      x0: e.clientX,
      y0: e.clientY,
      additive: e.ctrlKey || e.metaKey,
      dragged: null,
    };
    followPointer(true);
  };

  // The press that started a gesture must not also pan or, as a click on the pane, clear the selection just made.
  // d3-zoom pans on mousedown and touchstart: a pointerdown whose default is prevented fires no mousedown, but a
  // touch still fires touchstart.
  const swallowWhileGesture = (e: Event) => {
    if (gesture) e.stopPropagation();
  };
  const onClick = (e: MouseEvent) => {
    if (!swallowClick) return;
    swallowClick = false;
    e.stopPropagation();
  };
  // A double click zooms in to work on the node (the editor centres a selected node at a working zoom), instead of
  // React Flow's plain zoom-in at the pointer.
  const onDoubleClick = (e: MouseEvent) => {
    const node = hit(e);
    if (!node) return;
    e.stopPropagation();
    e.preventDefault();
    editor.selectNode(node.id);
  };
  const onHover = (e: PointerEvent) => {
    if (gesture || e.buttons) return;
    root.classList.toggle('pf-over-drawn-node', !!hit(e));
  };

  // Box selection: React Flow selects the cards in the box; when the box is let go, add the drawn nodes in it.
  let box: { x: number; y: number; width: number; height: number } | null = null;
  const unsubscribe = flow.subscribe((s, p) => {
    if (s.userSelectionActive && s.userSelectionRect) box = s.userSelectionRect;
    if (!p.userSelectionActive || s.userSelectionActive || !box) return;
    const [tx, ty, zoom] = s.transform;
    const rect = { x: (box.x - tx) / zoom, y: (box.y - ty) / zoom, width: box.width / zoom, height: box.height / zoom };
    box = null;
    const inside = nodesInside(drawnNodes(), rect);
    if (inside.length) select(new Set(inside.map((n) => n.id)), true);
  });

  root.addEventListener('pointerdown', onPointerDown, true);
  root.addEventListener('touchstart', swallowWhileGesture, true);
  root.addEventListener('click', onClick, true);
  root.addEventListener('dblclick', onDoubleClick, true);
  root.addEventListener('pointermove', onHover);
  window.addEventListener('keydown', onKeyDown);
  return () => {
    window.removeEventListener('keydown', onKeyDown);
    unsubscribe();
    root.removeEventListener('pointerdown', onPointerDown, true);
    root.removeEventListener('touchstart', swallowWhileGesture, true);
    root.removeEventListener('click', onClick, true);
    root.removeEventListener('dblclick', onDoubleClick, true);
    root.removeEventListener('pointermove', onHover);
    followPointer(false);
  };
}
