/**
 * The source's import graph, read from its import statements (type-only imports count too), for the structure tests
 * in test/architecture/. Test files are not part of it: a node's own tests may drive it through the runtime.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { EdgeLike } from '@/engine/graph/topology';

export const ROOT = path.resolve(__dirname, '../../..');
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const IMPORT =
  /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The shipped source files under `dir` (absolute paths): no tests, no generated client, no declarations. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'generated' || name === 'node_modules' ? [] : filesUnder(p);
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
  for (const ext of ['', '.ts', '.tsx', '.mts', '.mjs', '/index.ts', '/index.tsx'])
    try {
      if (statSync(base + ext).isFile()) return base + ext;
    } catch {
      // not this one
    }
  return null;
}

export type ImportEdge = EdgeLike & { id: string };

/** The file-level import graph of the given top-level folders, as repository-relative paths. */
export function importGraph(dirs: string[]): { nodes: Array<{ id: string }>; edges: ImportEdge[] } {
  const files = dirs.flatMap((dir) => filesUnder(path.join(ROOT, dir)));
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const targets = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(file, m[1] ?? m[2]);
      if (target && target !== file && known.has(target)) targets.add(target);
    }
    for (const target of targets) {
      const [source, to] = [path.relative(ROOT, file), path.relative(ROOT, target)];
      edges.push({ source, target: to, id: `${source} → ${to}` });
    }
  }
  return { nodes: files.map((f) => ({ id: path.relative(ROOT, f) })), edges };
}
