// Guarantees of the code's structure (issue 34): no source file imports itself around a circle of other files.
// Type-only imports count too: a circle of types is a circle of concepts, and the next value import along it turns
// into an import-order bug (a class or a schema read before its module has run).
// - lib/ and app/ have no circle at all;
// - the folders of lib/server/ (one per concern) import each other one way only; the composition root at its top
//   (app.ts, app-types.ts, config.ts), which every concern reaches for the App, is left out of that count;
// - engine/ and components/ still have a few, listed in STILL_CIRCULAR as the imports that close them. The list may
//   only shrink: a new circle fails, and so does a listed import that no longer closes one.
// A circle is named file by file, so whoever adds one sees where to cut it (usually: move what both sides need to a
// module of its own, or let one side declare the narrow interface it needs of the other).
import { describe, expect, it } from 'vitest';
import { buildTopology, findCycle, nodesOnCycles, type EdgeLike } from '@/engine/graph/topology';
import { importGraph as importGraphOf } from './support/import-graph';

const CHECKED = ['lib', 'app', 'engine', 'components', 'scripts', 'messages'];

/** Imports that still close a circle (importer → imported): to be untangled, never added to. */
const STILL_CIRCULAR: string[] = [
  'engine/agent/agent-checkpoint.ts → engine/agent/run-agent.ts',
  'engine/agent/run-agent.ts → engine/agent/agent-checkpoint.ts',
  'engine/agent/run-agent.ts → engine/agent/tool-batch.ts',
  'engine/agent/tool-batch.ts → engine/agent/agent-checkpoint.ts',
  'engine/agent/tool-batch.ts → engine/agent/run-agent.ts',
];

const importGraph = () => importGraphOf(CHECKED);

/** The imports that close a circle, and one circle of each knot of files that reach each other, spelled out. */
function circlesOf(graph: ReturnType<typeof importGraph>) {
  const onCycles = nodesOnCycles(buildTopology(graph));
  const closing = graph.edges.filter(
    (e) => onCycles.has(e.source) && onCycles.get(e.source) === onCycles.get(e.target),
  );
  const named = new Map<number, string>();
  for (const component of new Set(onCycles.values())) {
    const inside = (id: string) => onCycles.get(id) === component;
    const circle = findCycle(
      buildTopology({
        nodes: graph.nodes.filter((n) => inside(n.id)),
        edges: closing.filter((e) => inside(e.source)),
      }),
    )!;
    named.set(component, [...circle, circle[0]].join(' → '));
  }
  return { closing, circleThrough: (file: string) => named.get(onCycles.get(file)!)! };
}

describe('the layers hold', () => {
  const graph = importGraph();
  const { closing, circleThrough } = circlesOf(graph);

  it('the walk sees the source files and their imports', () => {
    expect(graph.nodes.length).toBeGreaterThan(300);
    expect(graph.edges.some((e) => e.id === 'lib/server/app.ts → lib/server/app-types.ts')).toBe(true);
  });

  it('no file of lib/ or app/ imports itself around a circle', () => {
    const inLibOrApp = closing.filter((e) => /^(lib|app)\//.test(e.source));
    expect([...new Set(inLibOrApp.map((e) => circleThrough(e.source)))], 'import circles').toEqual([]);
  });

  it('no new import circle anywhere else, and the listed ones are still to untangle', () => {
    const added = closing.filter((e) => !/^(lib|app)\//.test(e.source) && !STILL_CIRCULAR.includes(e.id));
    const circles = [...new Set(added.map((e) => circleThrough(e.source)))];
    expect(
      added.map((e) => e.id),
      `new import circles: ${circles.join('; ')}`,
    ).toEqual([]);
    expect(
      STILL_CIRCULAR.filter((id) => !closing.some((e) => e.id === id)),
      'untangled: remove from STILL_CIRCULAR',
    ).toEqual([]);
  });

  it('the folders of lib/server/ import each other one way only', () => {
    const server = 'lib/server/';
    const folderOf = (file: string) => {
      const parts = file.slice(server.length).split('/');
      return file.startsWith(server) && parts.length > 1 ? parts[0] : null;
    };
    const between = new Map<string, EdgeLike & { id: string; via: string }>();
    for (const e of graph.edges) {
      const [from, to] = [folderOf(e.source), folderOf(e.target)];
      if (from && to && from !== to && !between.has(`${from} → ${to}`))
        between.set(`${from} → ${to}`, { source: from, target: to, id: `${from} → ${to}`, via: e.id });
    }
    const folders = [...new Set([...between.values()].flatMap((e) => [e.source, e.target]))];
    expect(folders.length, 'lib/server/ is grouped into folders').toBeGreaterThan(5);
    const onCycles = nodesOnCycles(
      buildTopology({ nodes: folders.map((id) => ({ id })), edges: [...between.values()] }),
    );
    const circular = [...between.values()].filter(
      (e) => onCycles.has(e.source) && onCycles.get(e.source) === onCycles.get(e.target),
    );
    expect(
      circular.map((e) => `${e.id} (${e.via})`),
      'folders of lib/server/ that import each other',
    ).toEqual([]);
  });
});
