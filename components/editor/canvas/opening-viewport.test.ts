import { getViewportForBounds } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import type { FlowNode } from '../graph-model';
import { cardSize } from './card-geometry';
import { nodeTypeInfo } from './node-type-fixtures';
import { openingViewport } from './opening-viewport';

const types = new Map([
  ['template', nodeTypeInfo('template', ['out'])],
  ['condition', nodeTypeInfo('condition', ['else'], { dynamicOutputs: true })],
]);

const node = (id: string, type: string, x: number, y: number, config: Record<string, unknown> = {}) =>
  ({ id, type, position: { x, y }, data: { label: id, config } }) as FlowNode;

const fit = { padding: 0, minZoom: 0.05, maxZoom: 1.2 };

describe('the viewport a workflow opens at', () => {
  it('sizes a plain card 240 × 96 and a branching one by its branches plus else', () => {
    expect(cardSize(node('a', 'template', 0, 0), types.get('template'))).toEqual({ width: 240, height: 96 });
    const cond = node('c', 'condition', 0, 0, { branches: [{ id: 'x' }, { id: 'y' }] });
    expect(cardSize(cond, types.get('condition'))).toEqual({ width: 240, height: 96 + 9 + 3 * 24 });
  });

  it('fits the cards, not just their corners', () => {
    const nodes = [node('a', 'template', 0, 0), node('b', 'template', 1000, 500)];
    const v = openingViewport(nodes, types, { width: 1240, height: 596 }, fit)!;
    // The bounds run to the far card's bottom-right corner: 1240 × 596, which fits the pane exactly at zoom 1.
    expect(v).toEqual(getViewportForBounds({ x: 0, y: 0, width: 1240, height: 596 }, 1240, 596, 0.05, 1.2, 0));
    expect(v.zoom).toBeCloseTo(1);
  });

  it('keeps to the zoom limits and honours the padding', () => {
    const far = [node('a', 'template', 0, 0), node('b', 'template', 100_000, 0)];
    expect(openingViewport(far, types, { width: 1000, height: 600 }, fit)!.zoom).toBe(0.05);
    const one = [node('a', 'template', 0, 0)];
    expect(openingViewport(one, types, { width: 1000, height: 600 }, fit)!.zoom).toBe(1.2);
    const two = [node('a', 'template', 0, 0), node('b', 'template', 1000, 500)];
    const padded = openingViewport(two, types, { width: 1240, height: 596 }, { ...fit, padding: 0.2 })!;
    expect(padded.zoom).toBeLessThan(0.9);
  });

  it('leaves the fit to React Flow with nothing to fit or no canvas yet', () => {
    expect(openingViewport([], types, { width: 1000, height: 600 }, fit)).toBeUndefined();
    expect(openingViewport([node('a', 'template', 0, 0)], types, { width: 0, height: 0 }, fit)).toBeUndefined();
  });
});
