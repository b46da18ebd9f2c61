/**
 * Where a node card's parts are, in flow pixels, without measuring it. Every card has a fixed size
 * (workflow-node.tsx): 240 px wide, 2 px borders around a 46 px header and a 46 px body, and for a branching node a
 * row list (1 px top border, 4 px padding above and below) with one 24 px row per branch. Its handles are 10 px
 * squares centred on the card's inner edge — the input and a single output 21 px below the border, each branch
 * output in the middle of its row. The opening fit and the overview (overview-layer.tsx) draw from these figures
 * before React Flow has measured a card, and they match what it measures
 * (e2e/overview-draws-what-the-cards-would.spec.ts).
 */
import type { NodeTypeInfo } from '@/components/api/types';
import { isBranching, outputsOf, type FlowNode } from '../graph-model';

const BORDER = 2;
const HEADER = 46;
const BODY = 46;
/** `w-60`. */
export const CARD_WIDTH = 240;
/** Two borders, the header and the body: 96. */
export const CARD_HEIGHT = 2 * BORDER + HEADER + BODY;
/** The branch list: a 1 px border and 4 px padding above the rows, 4 px below. */
const BRANCH_LIST_TOP = 5;
const BRANCH_LIST = 9;
const BRANCH_ROW = 24;
/** `.pf-handle` (app/globals.css), centred on the card's inner edge by React Flow's handle CSS. */
const HANDLE = 10;
/** `top` of the input and a single output (workflow-node.tsx). */
export const TOP_HANDLE_TOP = 21;

export interface Anchor {
  /** The handle's id (`in` for the input). */
  id: string;
  /** The point an edge meets: the outer side of the handle, at its middle. */
  x: number;
  y: number;
}

export interface CardShape {
  width: number;
  height: number;
  /** The input handle, or null for a node without inputs (Start). */
  input: Anchor | null;
  /** The output handles in the order they are drawn. */
  outputs: Anchor[];
}

export function cardSize(node: FlowNode, type: NodeTypeInfo | undefined): { width: number; height: number } {
  if (!isBranching(type)) return { width: CARD_WIDTH, height: CARD_HEIGHT };
  return {
    width: CARD_WIDTH,
    height: CARD_HEIGHT + BRANCH_LIST + BRANCH_ROW * outputsOf(type, node.data.config).length,
  };
}

/** The box around these nodes' cards, or null for no nodes. */
export function cardsBounds(nodes: readonly FlowNode[], types: ReadonlyMap<string, NodeTypeInfo>) {
  if (!nodes.length) return null;
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
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/** A card's size and handle anchors, relative to its top-left corner. */
export function cardShape(node: FlowNode, type: NodeTypeInfo | undefined): CardShape {
  const { width, height } = cardSize(node, type);
  const topY = BORDER + TOP_HANDLE_TOP;
  const leftX = BORDER - HANDLE / 2;
  const rightX = width - BORDER + HANDLE / 2;
  const input = (type?.inputs.length ?? 1) > 0 ? { id: 'in', x: leftX, y: topY } : null;
  const outs = outputsOf(type, node.data.config);
  if (!isBranching(type))
    return { width, height, input, outputs: outs.length ? [{ id: outs[0].id, x: rightX, y: topY }] : [] };
  const rowsTop = BORDER + HEADER + BODY + BRANCH_LIST_TOP;
  const outputs = outs.map((o, i) => ({ id: o.id, x: rightX, y: rowsTop + BRANCH_ROW * i + BRANCH_ROW / 2 }));
  return { width, height, input, outputs };
}
