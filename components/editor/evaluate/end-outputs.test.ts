// Guarantees: a scorer's field list is every End output of the graph once, in node order, and a node without
// outputs (or not an End) adds none.
import { describe, expect, it } from 'vitest';
import type { FlowNode } from '../graph-model';
import { endOutputs } from './end-outputs';

const node = (id: string, type: string, config: Record<string, unknown>): FlowNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { config },
});

describe('the End outputs a scorer may read', () => {
  it('lists each End output once, in node order, and nothing else', () => {
    const nodes = [
      node('start', 'start', { inputs: [{ name: 'message' }] }),
      node('end', 'end', {
        outputs: [
          { name: 'answer', value: '' },
          { name: 'route', value: '' },
        ],
      }),
      node('end2', 'end', {
        outputs: [
          { name: 'route', value: '' },
          { name: 'model', value: '' },
        ],
      }),
      node('end3', 'end', {}),
    ];
    expect(endOutputs(nodes)).toEqual(['answer', 'route', 'model']);
    expect(endOutputs([node('start', 'start', {})])).toEqual([]);
  });
});
