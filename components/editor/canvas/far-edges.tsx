'use client';
/**
 * Zoomed far out, the edges are one SVG path drawn under the cards, instead of one React Flow edge component (an
 * SVG, two paths and three store subscriptions) per edge. From there an edge is a hairline, too thin to click, and
 * a big graph brings dozens of edges into view a frame while zooming out: mounting them was a third of a frame's
 * work. The path joins the same handles React Flow measured, with the same curves (bezier, or the smooth steps
 * auto-layout gives the edges that run backwards), so nothing moves when React Flow draws them again, zoomed in.
 */
import {
  getBezierPath,
  getSmoothStepPath,
  Position,
  useStore,
  ViewportPortal,
  type InternalNode,
  type ReactFlowState,
} from '@xyflow/react';
import { memo, useMemo } from 'react';
import type { FlowEdge, FlowNode } from '../graph-model';

const selectNodeLookup = (s: ReactFlowState) => s.nodeLookup;
const selectNodes = (s: ReactFlowState) => s.nodes;
/** Changes when React Flow has measured more nodes' handles (it measures in place, in the same lookup). */
const selectMeasured = (s: ReactFlowState) => {
  let n = 0;
  for (const node of s.nodeLookup.values()) if (node.internals.handleBounds) n++;
  return n;
};

const SVG_STYLE = {
  position: 'absolute',
  left: 0,
  top: 0,
  overflow: 'visible',
  pointerEvents: 'none',
  zIndex: -1,
} as const;

type Side = 'source' | 'target';

/** Where an edge meets a node: the outer side of the handle (React Flow's anchor), or null before it is measured. */
function anchor(node: InternalNode | undefined, side: Side, handleId: string | null | undefined) {
  const handles = node?.internals.handleBounds?.[side];
  if (!node || !handles?.length) return null;
  const h = (handleId != null && handles.find((x) => x.id === handleId)) || handles[0];
  const { x, y } = node.internals.positionAbsolute;
  return { x: x + h.x + (side === 'source' ? h.width : 0), y: y + h.y + h.height / 2 };
}

export function edgePath(edge: FlowEdge, lookup: Map<string, InternalNode>): string | null {
  const s = anchor(lookup.get(edge.source), 'source', edge.sourceHandle);
  const t = anchor(lookup.get(edge.target), 'target', edge.targetHandle);
  if (!s || !t) return null;
  const points = {
    sourceX: s.x,
    sourceY: s.y,
    sourcePosition: Position.Right,
    targetX: t.x,
    targetY: t.y,
    targetPosition: Position.Left,
  };
  if (edge.type === 'smoothstep' || edge.type === 'step') {
    const options = (edge as { pathOptions?: { offset?: number; stepPosition?: number } }).pathOptions;
    return getSmoothStepPath({
      ...points,
      borderRadius: edge.type === 'step' ? 0 : undefined,
      offset: options?.offset,
      stepPosition: options?.stepPosition,
    })[0];
  }
  return getBezierPath(points)[0];
}

function FarEdgesImpl({ edges }: { edges: FlowEdge[] }) {
  const lookup = useStore(selectNodeLookup);
  const nodes = useStore(selectNodes);
  const measured = useStore(selectMeasured);
  const d = useMemo(
    () =>
      edges
        .map((e) => edgePath(e, lookup as Map<string, InternalNode<FlowNode>>))
        .filter(Boolean)
        .join(' '),
    // The lookup is updated in place: the nodes (positions) and the measured count say when it changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [edges, lookup, nodes, measured],
  );
  return (
    <ViewportPortal>
      <svg style={SVG_STYLE} width={1} height={1} data-testid="far-edges">
        <path d={d} fill="none" stroke="#b1b1b7" strokeWidth={1.5} />
      </svg>
    </ViewportPortal>
  );
}

export const FarEdges = memo(FarEdgesImpl);
