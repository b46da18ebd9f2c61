/**
 * Shared by the media node tests: a harness whose runs have artifacts (a local blob folder beside the test
 * database) and small graphs start → node(s) → end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Artifacts } from '@/engine/artifacts/artifacts';
import { LocalBlobStore } from '@/engine/artifacts/local-blob-store';
import { PrismaArtifactStore } from '@/engine/store/prisma/artifact-store';
import type { Graph, GraphNode } from '@/engine/graph/schema';
import { createHarness, type Harness, type HarnessOptions } from '../support/harness';
import { openTestDb } from '../support/databases';

export interface MediaHarness extends Harness {
  artifacts: Artifacts;
  blobDir: string;
}

export async function mediaHarness(
  opts: Omit<HarnessOptions, 'tdb' | 'artifacts'> = {},
  kind: 'pglite' | 'postgres' = 'pglite',
): Promise<MediaHarness> {
  const tdb = await openTestDb(kind);
  const blobDir = mkdtempSync(path.join(tmpdir(), 'paiflow-blobs-'));
  const artifacts = new Artifacts(new PrismaArtifactStore(tdb.db.prisma), new LocalBlobStore(blobDir), {
    maxBytes: 50 * 1024 * 1024,
    retentionDays: 0,
  });
  const h = await createHarness(kind, { ...opts, tdb, artifacts });
  return {
    ...h,
    artifacts,
    blobDir,
    async close() {
      await h.close();
      await tdb.dispose();
      rmSync(blobDir, { recursive: true, force: true });
    },
  };
}

/** start(inputs) → the nodes in order → end(outputs). */
export function lineGraph(
  nodes: Array<Pick<GraphNode, 'id' | 'type'> & { config: Record<string, unknown> }>,
  outputs: Record<string, string>,
  inputs: string[] = [],
): Graph {
  const all: Graph['nodes'] = [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: inputs.map((name) => ({ name, type: 'string', required: false })) } },
    },
    ...nodes.map((n, i) => ({
      id: n.id,
      type: n.type,
      position: { x: (i + 1) * 200, y: 0 },
      data: { config: n.config },
    })),
    {
      id: 'end',
      type: 'end',
      position: { x: (nodes.length + 1) * 200, y: 0 },
      data: { config: { outputs: Object.entries(outputs).map(([name, value]) => ({ name, value })) } },
    },
  ];
  const ids = all.map((n) => n.id);
  return { nodes: all, edges: ids.slice(1).map((id, i) => ({ id: `e${i}`, source: ids[i], target: id })) };
}
