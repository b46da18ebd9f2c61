/**
 * The viewport a workflow opens at: its cards fitted into the canvas, computed from their known sizes before React
 * Flow mounts them. Every card has a fixed size (workflow-node.tsx), so the fit is known up front and each card
 * mounts once, at the zoom it is seen at. Fitting after the first render instead (React Flow's `fitView`) mounts
 * every card at zoom 1, measures them, zooms out, and re-renders them all — for a 500-node graph, in outline.
 */
import { getViewportForBounds, type Viewport } from '@xyflow/react';
import type { NodeTypeInfo } from '@/components/api/types';
import type { FlowNode } from '../graph-model';
import { cardSize } from './card-geometry';

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
  if (!nodes.length || pane.width <= 0 || pane.height <= 0) return undefined;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const n of nodes) {
    const size = cardSize(n, types.get(n.type ?? ''));
    minX = Math.min(minX, n.position.x);
    minY = Math.min(minY, n.position.y);
    maxX = Math.max(maxX, n.position.x + size.width);
    maxY = Math.max(maxY, n.position.y + size.height);
  }
  const bounds = { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
  return getViewportForBounds(bounds, pane.width, pane.height, options.minZoom, options.maxZoom, options.padding);
}
