import { getBezierPath, getSmoothStepPath, Position, type InternalNode } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import type { FlowEdge } from '../graph-model';
import { edgePath } from './far-edges';

const handle = (id: string, x: number, y: number, position: Position) => ({
  id,
  x,
  y,
  width: 10,
  height: 10,
  position,
});

function internal(id: string, x: number, y: number, measured = true): InternalNode {
  return {
    id,
    position: { x, y },
    data: {},
    measured: { width: 240, height: 96 },
    internals: {
      positionAbsolute: { x, y },
      z: 0,
      userNode: { id, position: { x, y }, data: {} },
      handleBounds: measured
        ? {
            source: [handle('out', 235, 16, Position.Right), handle('b2', 235, 120, Position.Right)],
            target: [handle('in', -5, 16, Position.Left)],
          }
        : undefined,
    },
  } as unknown as InternalNode;
}

const lookup = new Map([
  ['a', internal('a', 0, 0)],
  ['b', internal('b', 400, 200)],
  ['c', internal('c', 800, 0, false)],
]);

describe('the far-zoom edge path', () => {
  it('runs from the outer side of the source handle to the outer side of the target handle, as React Flow does', () => {
    const d = edgePath({ id: 'e', source: 'a', target: 'b' } as FlowEdge, lookup);
    const [expected] = getBezierPath({
      sourceX: 245,
      sourceY: 21,
      sourcePosition: Position.Right,
      targetX: 395,
      targetY: 221,
      targetPosition: Position.Left,
    });
    expect(d).toBe(expected);
  });

  it('starts at the branch handle the edge leaves from', () => {
    const d = edgePath({ id: 'e', source: 'a', sourceHandle: 'b2', target: 'b' } as FlowEdge, lookup)!;
    expect(d.startsWith('M245,125')).toBe(true);
  });

  it('keeps the smooth steps auto-layout gives the edges that run backwards', () => {
    const edge = { id: 'e', source: 'b', target: 'a', type: 'smoothstep', pathOptions: { offset: 16 } } as FlowEdge;
    const [expected] = getSmoothStepPath({
      sourceX: 645,
      sourceY: 221,
      sourcePosition: Position.Right,
      targetX: -5,
      targetY: 21,
      targetPosition: Position.Left,
      offset: 16,
    });
    expect(edgePath(edge, lookup)).toBe(expected);
  });

  it('draws nothing for a node whose handles are not measured yet, or that is gone', () => {
    expect(edgePath({ id: 'e', source: 'a', target: 'c' } as FlowEdge, lookup)).toBeNull();
    expect(edgePath({ id: 'e', source: 'a', target: 'gone' } as FlowEdge, lookup)).toBeNull();
  });
});
