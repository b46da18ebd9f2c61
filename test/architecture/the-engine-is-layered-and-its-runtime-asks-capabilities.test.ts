// Guarantees of the code's structure (issue 34), checked on the source so they cannot quietly erode:
// - no two folders of engine/ import each other, directly or around a circle (type-only imports count too: a
//   circle of types is a circle of concepts). A node's own tests may drive it through the runtime: test files
//   are not part of the layers;
// - the database client (Prisma) is named only inside engine/store/;
// - the runtime, the graph module and the loop runner never ask a node's type name: they ask its capabilities.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTopology, nodesOnCycles } from '@/engine/graph/topology';
import { filesUnder, importGraph, ROOT } from './support/import-graph';

const engine = path.join(ROOT, 'engine');
/**
 * A file's folder unit (the file repository-relative): the first folder under engine/, except that engine/store's
 * sub-folders are units of their own. engine/store/*.ts holds the records and the store interfaces everyone reads
 * (below the domains); engine/store/prisma implements them and the interfaces other folders declare (a memory store,
 * a knowledge catalogue), and engine/store/app gathers them into the app's stores: those two sit on top.
 */
const folderOf = (file: string) => {
  const parts = file.split('/').slice(1);
  if (parts.length < 2) return null;
  return parts[0] === 'store' && parts.length > 2 ? `store/${parts[1]}` : parts[0];
};

describe('the layers hold', () => {
  it('no two folders of engine/ import each other, directly or around a circle', () => {
    const graph = importGraph(['engine']);
    const edges = new Map<string, { source: string; target: string; id: string; via: string }>();
    for (const e of graph.edges) {
      const [from, to] = [folderOf(e.source), folderOf(e.target)];
      if (from && to && from !== to && !edges.has(`${from}→${to}`))
        edges.set(`${from}→${to}`, { source: from, target: to, id: `${from}→${to}`, via: e.id });
    }
    const folders = new Set(graph.nodes.map((n) => folderOf(n.id)).filter((f): f is string => f !== null));
    expect(folders.size, 'the walk sees the folders of engine/').toBeGreaterThan(10);
    const t = buildTopology({ nodes: [...folders].map((id) => ({ id })), edges: [...edges.values()] });
    const onCycles = nodesOnCycles(t);
    const circles = [...edges.values()].filter(
      (e) => onCycles.has(e.source) && onCycles.get(e.source) === onCycles.get(e.target),
    );
    expect(circles.map((e) => `${e.id} (${e.via})`)).toEqual([]);
  });

  it('the database client is named only inside engine/store/', () => {
    const outside = ['app', 'lib', 'components', 'engine']
      .flatMap((dir) => filesUnder(path.join(ROOT, dir)))
      .filter((f) => !f.startsWith(path.join(ROOT, 'engine', 'store') + path.sep))
      // The client's name, in code or prose; not the PRISMA_* variables of its tooling, nor the path of the
      // migrations folder (`prisma/migrations`, where the SQL lives).
      .filter((f) =>
        /prisma|Prisma/.test(
          readFileSync(f, 'utf8').replace(/PRISMA_\w+|prisma\/migrations|'prisma', 'migrations'/g, ''),
        ),
      )
      .map((f) => path.relative(ROOT, f));
    expect(outside).toEqual([]);
  });

  it('the runtime, the graph module and the loop runner ask capabilities, never a node type name', () => {
    const typeNames = /\.type\s*[!=]==\s*'(start|end|loop|human_input|workflow|agent|condition)'/;
    const asking = ['runtime', 'graph']
      .flatMap((dir) => filesUnder(path.join(engine, dir)))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => (typeNames.test(line) ? `${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}` : null))
          .filter((x): x is string => x !== null),
      );
    expect(asking).toEqual([]);
  });
});
