/**
 * The viewport a workflow opens at: its cards fitted into the canvas, computed from their known sizes before React
 * Flow mounts them. Every card has a fixed size (workflow-node.tsx), so the fit is known up front and each card
 * mounts once, at the zoom it is seen at. Fitting after the first render instead (React Flow's `fitView`) mounts
 * every card at zoom 1, measures them, zooms out, and re-renders them all — for a 500-node graph, in outline.
 */
import { getViewportForBounds, type Viewport } from '@xyflow/react';
import type { NodeTypeInfo } from '@/components/api/types';
import type { FlowNode } from '../graph-model';
import { cardsBounds } from './card-geometry';

export interface FitOptions {
  padding: Parameters<typeof getViewportForBounds>[5];
  minZoom: number;
  maxZoom: number;
}

/**
 * What React Flow's fitView would choose once the cards are measured, or undefined when there is nothing to fit
 * or no canvas to fit into yet (then React Flow fits after measuring, as before).
 */
export function openingViewport(
  nodes: FlowNode[],
  types: Map<string, NodeTypeInfo>,
  pane: { width: number; height: number },
  options: FitOptions,
): Viewport | undefined {
  const bounds = cardsBounds(nodes, types);
  if (!bounds || pane.width <= 0 || pane.height <= 0) return undefined;
  return getViewportForBounds(bounds, pane.width, pane.height, options.minZoom, options.maxZoom, options.padding);
}
