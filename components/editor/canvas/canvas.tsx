'use client';
/**
 * The React Flow canvas: controlled by the EditorStore, accepts palette drops, refuses bad connections with a reason.
 */
import '@xyflow/react/dist/style.css';
import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type FinalConnectionState,
  type IsValidConnection,
  type NodeTypes,
} from '@xyflow/react';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { DragEvent } from 'react';
import { toast } from '@/components/ui/toast';
import { useEditorContext, useEditorState } from '../editor-context';
import type { EditorState, EditorStore } from '../editor-store';
import type { FlowNode } from '../graph-model';
import { FIT_VIEW_OPTIONS, FIT_VIEW_PADDING, setLayout, useLayoutPrefs } from '../layout-prefs';
import { useCanvasAriaLabels } from './canvas-aria-labels';
import { cardSize } from './card-geometry';
import { MiniMap } from './minimap';
import { openingViewport } from './opening-viewport';
import { OverviewLayer } from './overview-layer';
import { Overview } from './overview-model';
import { unselectEdges } from './overview-pointer';
import { cardEdges } from './overview-scene';
import { PALETTE_MIME } from './palette';
import { WorkflowNode } from './workflow-node';

/**
 * Node types come from the registry at run time, and every type renders through the same card, so the map is a
 * module-level constant that answers WorkflowNode for any type name (a stable reference, as React Flow wants).
 */
const nodeTypes: NodeTypes = new Proxy({} as NodeTypes, { get: () => WorkflowNode, has: () => true });

const selectNodes = (s: EditorState) => s.nodes;
const selectEdges = (s: EditorState) => s.edges;
const selectFocus = (s: EditorState) => s.focusRequest;
const selectEmpty = (s: EditorState) => s.nodes.length === 0;
/**
 * What React Flow is given of a node: its card's fixed size (so it has a size, and is fitted and culled, before it
 * is measured), and `hidden` unless it has a card — the overview draws it then (overview-scene.ts).
 */
function flowNodes(nodes: FlowNode[], cards: ReadonlySet<string>, types: EditorStore['types'], cache: NodeCopies) {
  return nodes.map((n) => {
    const as = cards.has(n.id) ? 'card' : 'hidden';
    let copies = cache.get(n);
    if (!copies) cache.set(n, (copies = {}));
    if (!copies[as]) {
      const size = cardSize(n, types.get(n.type ?? ''));
      copies[as] = { ...n, initialWidth: size.width, initialHeight: size.height, hidden: as === 'hidden' };
    }
    return copies[as];
  });
}
/** Per node of the editor, the two copies React Flow may be given (stable, so React Flow sees no change). */
type NodeCopies = WeakMap<FlowNode, { card?: FlowNode; hidden?: FlowNode }>;

const defaultEdgeOptions = { style: { strokeWidth: 1.5 } };
const MIN_ZOOM = 0.05;
const fitViewOptions = { ...FIT_VIEW_OPTIONS, maxZoom: 1.2 };
const openingFit = { padding: FIT_VIEW_PADDING, minZoom: MIN_ZOOM, maxZoom: fitViewOptions.maxZoom };
const DELETE_KEYS = ['Delete', 'Backspace'];
const MULTI_KEYS = ['Control', 'Meta'];

export function Canvas() {
  const { editor, runs } = useEditorContext();
  const t = useTranslations('canvas');
  const ariaLabelConfig = useCanvasAriaLabels();
  const nodes = useEditorState(selectNodes);
  const edges = useEditorState(selectEdges);
  const focus = useEditorState(selectFocus);
  const empty = useEditorState(selectEmpty);
  const rf = useReactFlow<FlowNode>();
  const [overview] = useState(() => new Overview(editor, runs));
  const cards = useSyncExternalStore(overview.subscribeCards, overview.getCards, overview.getCards);
  const [copies] = useState<NodeCopies>(() => new WeakMap());
  const flowNodeList = useMemo(() => flowNodes(nodes, cards, editor.types, copies), [nodes, cards, editor, copies]);
  const flowEdgeList = useMemo(() => cardEdges(edges, cards), [edges, cards]);
  const wrapper = useRef<HTMLDivElement>(null);
  /**
   * Open fitted (opening-viewport.ts): React Flow mounts once the canvas's size is known, at the viewport that fits
   * the cards. Without a size (or nodes) to fit, React Flow fits after measuring; an empty canvas is not fitted, or
   * it would jump as soon as the first dropped node is measured.
   */
  const [opening, setOpening] = useState<{ viewport?: { x: number; y: number; zoom: number }; fit: boolean }>();
  useLayoutEffect(() => {
    const { width, height } = wrapper.current!.getBoundingClientRect();
    const { nodes } = editor.state;
    const viewport = openingViewport(nodes, editor.types, { width, height }, openingFit);
    overview.open(viewport, { width, height });
    setOpening({ viewport, fit: !viewport && nodes.length > 0 });
  }, [editor, overview]);
  const { minimap } = useLayoutPrefs();
  const jumpTo = useCallback(
    (_e: unknown, p: { x: number; y: number }) => void rf.setCenter(p.x, p.y, { zoom: rf.getZoom(), duration: 200 }),
    [rf],
  );

  useEffect(() => {
    if (!focus) return;
    const n = rf.getNode(focus.nodeId);
    if (!n) return;
    const w = n.measured?.width ?? 240;
    const h = n.measured?.height ?? 100;
    void rf.setCenter(n.position.x + w / 2, n.position.y + h / 2, { zoom: Math.max(rf.getZoom(), 0.9), duration: 300 });
  }, [focus, rf]);

  const isValidConnection: IsValidConnection<Edge> = useCallback(
    (c) => editor.connectionProblem(c as Connection) === null,
    [editor],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      editor.connect(c);
    },
    [editor],
  );

  /**
   * React Flow only calls onConnect for valid drops. When the drop is refused, say why; when the pointer ends on
   * a node's body rather than on its input handle, connect to that node's input (what the user clearly meant).
   */
  const onConnectEnd = useCallback(
    (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid || !state.fromNode || !state.fromHandle) return;
      const point = 'changedTouches' in event ? event.changedTouches[0] : event;
      const el = document.elementFromPoint(point.clientX, point.clientY);
      const overId = state.toNode?.id ?? el?.closest('.react-flow__node')?.getAttribute('data-id') ?? null;
      if (!overId) return;
      const fromSource = state.fromHandle.type === 'source';
      const c = fromSource
        ? { source: state.fromNode.id, sourceHandle: state.fromHandle.id ?? null, target: overId, targetHandle: null }
        : { source: overId, sourceHandle: null, target: state.fromNode.id, targetHandle: state.fromHandle.id ?? null };
      const toHandleType = state.toHandle?.type;
      if (toHandleType && toHandleType === state.fromHandle.type && c.source !== c.target) {
        const problem = editor.connectionProblem(c);
        toast(
          'warning',
          t('connection.notAllowed'),
          problem ?? (fromSource ? t('connection.outputToInput') : t('connection.inputToOutput')),
        );
        return;
      }
      const problem = editor.connectionProblem(c);
      if (problem) toast('warning', t('connection.notAllowed'), problem);
      else if (!fromSource && !state.toHandle)
        toast('info', t('connection.dropOnOutput'), t('connection.dropOnOutputHint'));
      else editor.connect(c as Connection);
    },
    [editor, t],
  );

  /**
   * A click on the empty canvas: React Flow unselects what it knows of; the edges only the overview draws (not
   * between two cards, so not given to React Flow) are unselected here.
   */
  const onPaneClick = useCallback(() => unselectEdges(editor), [editor]);

  const readOnly = editor.readOnly;

  const onDragOver = useCallback(
    (e: DragEvent) => {
      if (readOnly || !e.dataTransfer.types.includes(PALETTE_MIME)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
    },
    [readOnly],
  );

  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(PALETTE_MIME);
      if (!type || readOnly) return;
      e.preventDefault();
      const p = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      // Drop point = the card's header centre, which is where the pointer holds the palette item.
      editor.addNode(type, { x: p.x - 120, y: p.y - 20 });
    },
    [editor, rf, readOnly],
  );

  return (
    <div
      ref={wrapper}
      className="relative h-full w-full"
      onDragOver={onDragOver}
      onDrop={onDrop}
      data-testid="canvas"
      data-read-only={readOnly || undefined}
    >
      {opening && (
        <ReactFlow<FlowNode>
          nodes={flowNodeList}
          edges={flowEdgeList}
          nodeTypes={nodeTypes}
          onNodesChange={editor.onNodesChange}
          onEdgesChange={editor.onEdgesChange}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          onPaneClick={onPaneClick}
          isValidConnection={isValidConnection}
          onNodeDragStart={editor.onNodeDragStart}
          onNodeDragStop={editor.onNodeDragStop}
          onSelectionDragStart={editor.onNodeDragStart}
          onSelectionDragStop={editor.onNodeDragStop}
          // Read-only (viewer): nodes can be selected to inspect them, not moved, connected, reconnected or deleted.
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          edgesReconnectable={!readOnly}
          elementsSelectable
          deleteKeyCode={readOnly ? null : DELETE_KEYS}
          multiSelectionKeyCode={MULTI_KEYS}
          selectionKeyCode="Shift"
          defaultEdgeOptions={defaultEdgeOptions}
          defaultViewport={opening.viewport}
          fitView={opening.fit}
          fitViewOptions={fitViewOptions}
          minZoom={MIN_ZOOM}
          maxZoom={2}
          attributionPosition="top-right"
          connectionRadius={28}
          onlyRenderVisibleElements
          ariaLabelConfig={ariaLabelConfig}
        >
          <OverviewLayer overview={overview} />
          <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} color="#d4d4d8" />
          <Controls position="bottom-left" showInteractive={false} fitViewOptions={fitViewOptions}>
            <ControlButton
              onClick={() => setLayout((p) => ({ minimap: !p.minimap }))}
              aria-pressed={minimap}
              aria-label={minimap ? t('minimap.hide') : t('minimap.show')}
              title={minimap ? t('minimap.hide') : t('minimap.show')}
              data-testid="toggle-minimap"
            >
              {/* i18n-exempt: an icon glyph */}▦
            </ControlButton>
          </Controls>
          {minimap && <MiniMap onClick={jumpTo} />}
        </ReactFlow>
      )}
      {empty && (
        <div className="pointer-events-none absolute inset-0 grid place-items-center" data-testid="empty-canvas">
          <div
            className={
              'rounded-xl border border-dashed border-zinc-300 bg-white/80 px-8 py-6 text-center text-sm ' +
              'text-zinc-500 ' +
              'shadow-sm'
            }
          >
            <div className="font-medium text-zinc-700">{t('empty.title')}</div>
            {readOnly ? t('empty.readOnly') : t.rich('empty.hint', { b: (c) => <b>{c}</b> })}
          </div>
        </div>
      )}
    </div>
  );
}
