// Guarantees of the code's structure (issue 34): no source file imports itself around a circle of other files.
// Type-only imports count too: a circle of types is a circle of concepts, and the next value import along it turns
// into an import-order bug (a class or a schema read before its module has run).
// - no file of lib/, app/, engine/, components/, scripts/ or messages/ is on a circle at all;
// - the folders of lib/server/ (one per concern) import each other one way only; the composition root at its top
//   (app.ts, app-types.ts, config.ts), which every concern reaches for the App, is left out of that count.
// A circle is named file by file, so whoever adds one sees where to cut it (usually: move what both sides need to a
// module of its own, or let one side declare the narrow interface it needs of the other and receive it).
import { describe, expect, it } from 'vitest';
import { buildTopology, findCycle, nodesOnCycles, type EdgeLike } from '@/engine/graph/topology';
import { importGraph as importGraphOf } from './support/import-graph';

const CHECKED = ['lib', 'app', 'engine', 'components', 'scripts', 'messages'];

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

  it(`no file imports itself around a circle, anywhere in ${CHECKED.join(', ')}`, () => {
    expect([...new Set(closing.map((e) => circleThrough(e.source)))], 'import circles').toEqual([]);
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
