// Guarantees of the code's structure (issue 34), checked on the source so they cannot quietly erode:
// - no two folders of engine/ import each other, directly or around a circle (type-only imports count too: a
//   circle of types is a circle of concepts). A node's own tests may drive it through the runtime: test files
//   are not part of the layers;
// - the database client (Prisma) is named only inside engine/store/;
// - the runtime, the graph module and the loop runner never ask a node's type name: they ask its capabilities.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTopology, nodesOnCycles } from '@/engine/graph/topology';

const ROOT = path.resolve(__dirname, '../..');
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const IMPORT =
  /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'generated' || name === 'node_modules' ? [] : filesUnder(p);
    // What ships: a node's tests may drive it through the runtime and a test database.
    return SOURCE.test(name) && !name.endsWith('.d.mts') && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith('@/')
    ? path.join(ROOT, spec.slice(2))
    : spec.startsWith('.')
      ? path.resolve(path.dirname(from), spec)
      : null;
  if (!base) return null;
  for (const ext of ['', '.ts', '.tsx', '.mts', '.mjs', '/index.ts'])
    try {
      if (statSync(base + ext).isFile()) return base + ext;
    } catch {
      // not this one
    }
  return null;
}

const engine = path.join(ROOT, 'engine');
/**
 * A file's folder unit: the first folder under engine/, except that engine/store's sub-folders are units of their own.
 * engine/store/*.ts holds the records and the store interfaces everyone reads (below the domains); engine/store/prisma
 * implements them and the interfaces other folders declare (a memory store, a knowledge catalogue), and
 * engine/store/app gathers them into the app's stores: those two sit on top.
 */
const folderOf = (file: string) => {
  const parts = path.relative(engine, file).split(path.sep);
  if (parts.length < 2) return null;
  return parts[0] === 'store' && parts.length > 2 ? `store/${parts[1]}` : parts[0];
};

describe('the layers hold', () => {
  it('no two folders of engine/ import each other, directly or around a circle', () => {
    const edges = new Map<string, { source: string; target: string; id: string; via: string }>();
    const folders = new Set<string>();
    // Tests beside the code (engine/nodes/<type>/*.test.ts) may use any layer; the layers are about the code.
    for (const file of filesUnder(engine).filter((f) => !f.endsWith('.test.ts'))) {
      const from = folderOf(file);
      if (!from) continue;
      folders.add(from);
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = resolve(file, m[1] ?? m[2]);
        const to = target?.startsWith(engine + path.sep) ? folderOf(target) : null;
        if (!to || to === from) continue;
        const id = `${from}→${to}`;
        if (!edges.has(id))
          edges.set(id, {
            source: from,
            target: to,
            id,
            via: `${path.relative(ROOT, file)} → ${path.relative(ROOT, target!)}`,
          });
      }
    }
    const t = buildTopology({ nodes: [...folders].map((id) => ({ id })), edges: [...edges.values()] });
    const onCycles = nodesOnCycles(t);
    const circles = [...edges.values()]
      .filter((e) => onCycles.has(e.source) && onCycles.get(e.source) === onCycles.get(e.target))
      .map((e) => e.id);
    expect(circles.map((id) => `${id} (${edges.get(id)!.via})`)).toEqual([]);
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
