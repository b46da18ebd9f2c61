/** The artifact rows on the app's database (PGlite or PostgreSQL), migration 0013. */
import type { ArtifactRecord, ArtifactStore } from '../../artifacts/types';
import type { PrismaClient } from './generated/client';

export class PrismaArtifactStore implements ArtifactStore {
  constructor(private readonly prisma: PrismaClient) {}

  async upsert(r: Omit<ArtifactRecord, 'createdAt'>): Promise<ArtifactRecord> {
    const { id, ...rest } = r;
    return this.prisma.artifact.upsert({ where: { id }, create: r, update: { ...rest, createdAt: new Date() } });
  }

  get(id: string): Promise<ArtifactRecord | null> {
    return this.prisma.artifact.findUnique({ where: { id } });
  }

  getInWorkspace(id: string, workspaceId: string): Promise<ArtifactRecord | null> {
    return this.prisma.artifact.findFirst({ where: { id, run: { workflow: { workspaceId } } } });
  }

  async workspaceOfRun(runId: string): Promise<string | null> {
    const r = await this.prisma.run.findUnique({
      where: { id: runId },
      select: { workflow: { select: { workspaceId: true } } },
    });
    return r?.workflow.workspaceId ?? null;
  }

  async existingKeys(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.prisma.artifact.findMany({
      where: { storageKey: { in: keys } },
      select: { storageKey: true },
    });
    return new Set(rows.map((r) => r.storageKey));
  }

  async deleteOlderThan(before: Date, limit: number): Promise<ArtifactRecord[]> {
    // One statement: a row a retried node stored again meanwhile (its time renewed) is not taken.
    const rows = await this.prisma.$queryRawUnsafe<Row[]>(
      'DELETE FROM "artifacts" WHERE "id" IN (SELECT "id" FROM "artifacts" WHERE "created_at" < $1 ' +
        'ORDER BY "created_at" LIMIT $2) AND "created_at" < $1 RETURNING *',
      before,
      limit,
    );
    return rows.map((r) => ({
      id: r.id,
      runId: r.run_id,
      nodeId: r.node_id,
      name: r.name,
      contentType: r.content_type,
      bytes: Number(r.bytes),
      sha256: r.sha256,
      storageKey: r.storage_key,
      createdAt: new Date(r.created_at),
    }));
  }
}

interface Row {
  id: string;
  run_id: string;
  node_id: string;
  name: string;
  content_type: string;
  bytes: number;
  sha256: string;
  storage_key: string;
  created_at: Date | string;
}
