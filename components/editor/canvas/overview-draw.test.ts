import { getBezierPath, getSmoothStepPath, Position, type InternalNode } from '@xyflow/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowEdge, FlowNode } from '../graph-model';
import { cardShape } from './card-geometry';
import { nodeTypeInfo } from './node-type-fixtures';
import { drawOverview, edgeEnd, type DrawInput } from './overview-draw';
import { sceneNode, type SceneNode } from './overview-scene';

/** A 2D context that writes down the paths it is asked to stroke, as SVG path text. */
class RecordingContext {
  strokes: string[] = [];
  texts: string[] = [];
  clears = 0;
  private path = '';
  canvas = { width: 1000, height: 600 };
  setTransform() {}
  clearRect() {
    this.clears++;
  }
  setLineDash() {}
  beginPath() {
    this.path = '';
  }
  moveTo(x: number, y: number) {
    this.path += `M${x},${y} `;
  }
  bezierCurveTo(a: number, b: number, c: number, d: number, x: number, y: number) {
    this.path += `C${a},${b} ${c},${d} ${x},${y}`;
  }
  stroke(path?: { d: string }) {
    this.strokes.push(path ? path.d : this.path.trim());
  }
  fill() {}
  fillText(text: string) {
    this.texts.push(text);
  }
}
class RecordingPath {
  d: string;
  constructor(d = '') {
    this.d = d;
  }
  roundRect() {}
  moveTo() {}
  arc() {}
}
const realPath2D = globalThis.Path2D;
beforeAll(() => void (globalThis.Path2D = RecordingPath as unknown as typeof Path2D));
afterAll(() => void (globalThis.Path2D = realPath2D));

const template = nodeTypeInfo('template', ['out'], { label: 'Template', category: 'data' });
const flowNode = (id: string, x: number, y: number) =>
  ({ id, type: 'template', position: { x, y }, data: { label: `Title ${id}`, config: {} } }) as FlowNode;
const drawn = (n: FlowNode): SceneNode => sceneNode(n, template, cardShape(n, template), undefined, 0);

/** React Flow's node `a` at (0, 0) with measured handles 2 px off the fixed geometry. */
function measured(): InternalNode {
  return {
    id: 'a',
    measured: { width: 240, height: 96 },
    internals: {
      positionAbsolute: { x: 0, y: 0 },
      z: 0,
      handleBounds: {
        source: [{ id: 'out', x: 235, y: 20, width: 10, height: 10, position: Position.Right }],
        target: [{ id: 'in', x: -5, y: 20, width: 10, height: 10, position: Position.Left }],
      },
    },
  } as unknown as InternalNode;
}

function input(scene: SceneNode[], edges: FlowEdge[], over: Partial<DrawInput> = {}): DrawInput {
  return {
    scene,
    byId: new Map(scene.map((n) => [n.id, n])),
    cards: new Set(),
    edges,
    lookup: new Map(),
    transform: [0, 0, 1],
    width: 1000,
    height: 600,
    dpr: 1,
    ...over,
  };
}

const bezier = (sx: number, sy: number, tx: number, ty: number) =>
  getBezierPath({
    sourceX: sx,
    sourceY: sy,
    sourcePosition: Position.Right,
    targetX: tx,
    targetY: ty,
    targetPosition: Position.Left,
  })[0];

describe('the overview’s edges', () => {
  const a = flowNode('a', 0, 0);
  const b = flowNode('b', 400, 200);
  const scene = [drawn(a), drawn(b)];

  it('are React Flow’s bezier curves between the handles the fixed geometry puts on the cards', () => {
    const ctx = new RecordingContext();
    drawOverview(ctx as unknown as CanvasRenderingContext2D, input(scene, [{ id: 'e', source: 'a', target: 'b' }]));
    expect(ctx.strokes[0]).toBe(bezier(243, 23, 397, 223));
  });

  it('start from the handles React Flow measured, where it has', () => {
    expect(edgeEnd(scene[0], measured(), 'source', null)).toEqual({ x: 245, y: 25 });
    expect(edgeEnd(scene[0], undefined, 'source', null)).toEqual({ x: 243, y: 23 });
    expect(edgeEnd(scene[0], undefined, 'target', 'in')).toEqual({ x: -3, y: 23 });
  });

  it('keep the smooth steps auto-layout gives the edges that run backwards', () => {
    const ctx = new RecordingContext();
    const edge = { id: 'e', source: 'b', target: 'a', type: 'smoothstep', pathOptions: { offset: 16 } } as FlowEdge;
    drawOverview(ctx as unknown as CanvasRenderingContext2D, input(scene, [edge]));
    const [expected] = getSmoothStepPath({
      sourceX: 643,
      sourceY: 223,
      sourcePosition: Position.Right,
      targetX: -3,
      targetY: 23,
      targetPosition: Position.Left,
      offset: 16,
    });
    expect(ctx.strokes).toContain(expected);
  });

  it('leave the edges between two cards to React Flow, and skip those out of view', () => {
    const far = flowNode('far', 5000, 5000);
    const farther = flowNode('farther', 6000, 5000);
    const edges = [
      { id: 'ab', source: 'a', target: 'b' },
      { id: 'out', source: 'far', target: 'farther' },
    ] as FlowEdge[];
    const ctx = new RecordingContext();
    const all = [...scene, drawn(far), drawn(farther)];
    const result = drawOverview(
      ctx as unknown as CanvasRenderingContext2D,
      input(all, edges, { cards: new Set(['a', 'b']) }),
    );
    expect(result).toMatchObject({ nodes: [], edges: [] });
    expect(ctx.strokes[0]).toBe('');
    // Blank before and after, the view moved: the canvas is not touched at all.
    const again = new RecordingContext();
    const moved = input(all, edges, { cards: new Set(['a', 'b']), transform: [10, 0, 1] });
    drawOverview(again as unknown as CanvasRenderingContext2D, moved, result);
    expect(again.strokes).toEqual([]);
  });

  it('redraw only when what they show changes', () => {
    const edges = [{ id: 'ab', source: 'a', target: 'b' }] as FlowEdge[];
    const first = drawOverview(new RecordingContext() as unknown as CanvasRenderingContext2D, input(scene, edges));
    const same = new RecordingContext();
    drawOverview(same as unknown as CanvasRenderingContext2D, input(scene, edges), first);
    expect(same.strokes).toEqual([]);
    const moved = new RecordingContext();
    drawOverview(moved as unknown as CanvasRenderingContext2D, input(scene, edges, { transform: [5, 0, 1] }), first);
    expect(moved.strokes).not.toEqual([]);
    // A new status colour is painted over the old card, without clearing or redrawing the rest.
    const b = { ...scene[1], stroke: '#ef4444' };
    const restyled = new RecordingContext();
    drawOverview(restyled as unknown as CanvasRenderingContext2D, input([scene[0], b], edges), first);
    expect(restyled).toMatchObject({ clears: 0, texts: ['Title b'] });
    // A node that moved, or whose selection ring changed, is a full redraw.
    for (const changed of [
      { ...scene[1], x: scene[1].x + 10 },
      { ...scene[1], selected: true },
    ]) {
      const full = new RecordingContext();
      drawOverview(full as unknown as CanvasRenderingContext2D, input([scene[0], changed], edges), first);
      expect(full).toMatchObject({ clears: 1, texts: ['Title a', 'Title b'] });
    }
  });
});

describe('the overview’s nodes', () => {
  const nodes = [flowNode('a', 0, 0), flowNode('b', 400, 200), flowNode('c', 3000, 0)];
  const scene = nodes.map(drawn);

  it('are the nodes in view without a card, titled where the zoom lets a title be read', () => {
    const ctx = new RecordingContext();
    const ids = drawOverview(
      ctx as unknown as CanvasRenderingContext2D,
      input(scene, [], { cards: new Set(['a']) }),
    ).nodes.map((n) => n.id);
    expect(ids).toEqual(['b']);
    expect(ctx.texts).toEqual(['Title b']);
  });

  it('carry their problem count, as a card’s badge does', () => {
    const flagged = { ...scene[1], problems: 2 };
    const ctx = new RecordingContext();
    drawOverview(ctx as unknown as CanvasRenderingContext2D, input([scene[0], flagged], []));
    expect(ctx.texts).toEqual(['Title a', 'Title b', '2']);
  });

  it('lose their titles zoomed out past 0.15, where 13 px text is under 2 px', () => {
    const ctx = new RecordingContext();
    const ids = drawOverview(
      ctx as unknown as CanvasRenderingContext2D,
      input(scene, [], { transform: [0, 0, 0.1] }),
    ).nodes.map((n) => n.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(ctx.texts).toEqual([]);
  });
});
