/**
 * MemoryStore on Prisma (PGlite or PostgreSQL, table agent_memories from migration 0003_memories). Saving is one
 * INSERT … ON CONFLICT on (scope_key, content_hash): concurrent saves of the same fact cannot create duplicates,
 * and saving a known fact again refreshes its embedding and `updated_at` (which also resets its time decay).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { MemoryRecord, MemoryScope, MemoryStore } from '../../node-kit/agent-services';
import { DEFAULT_WORKSPACE_ID } from '../types';
import { Prisma, type PrismaClient } from './generated/client';

export const scopeKey = (s: MemoryScope) =>
  s.kind === 'global' ? `workspace:${s.workspaceId ?? DEFAULT_WORKSPACE_ID}` : `workflow:${s.workflowId}`;
/** Case and spacing do not make a different memory. */
export const contentHash = (content: string) =>
  createHash('sha256').update(content.trim().replace(/\s+/g, ' ').toLowerCase()).digest('hex');

type Row = {
  id: string;
  scope: string;
  workflowId?: string | null;
  workflow_id?: string | null;
  content: string;
  embedding: unknown;
  embedderId?: string;
  embedder_id?: string;
  createdAt?: Date;
  created_at?: Date;
  updatedAt?: Date;
  updated_at?: Date;
  created?: boolean;
};

function toRecord(r: Row): MemoryRecord {
  const iso = (d: Date | string | undefined) => new Date(d ?? 0).toISOString();
  return {
    id: r.id,
    scope: r.scope === 'global' ? 'global' : 'workflow',
    workflowId: r.workflowId ?? r.workflow_id ?? null,
    content: r.content,
    embedding: (typeof r.embedding === 'string' ? JSON.parse(r.embedding) : r.embedding) as number[],
    embedderId: (r.embedderId ?? r.embedder_id)!,
    createdAt: iso(r.createdAt ?? r.created_at),
    updatedAt: iso(r.updatedAt ?? r.updated_at),
  };
}

/**
 * Columns are TIMESTAMP (no zone) holding UTC, as Prisma writes them; CURRENT_TIMESTAMP would follow the session zone.
 */
const NOW_UTC = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
const MEMORY_COLUMNS = Prisma.raw(
  '"id", "workspace_id", "scope", "workflow_id", "scope_key", "content", "content_hash", "embedder_id", "embedding", ' +
    '"created_at", "updated_at"',
);

export class PrismaMemoryStore implements MemoryStore {
  constructor(private readonly prisma: PrismaClient) {}

  async save(e: { scope: MemoryScope; content: string; embedding: number[]; embedderId: string }) {
    const id = `mem_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const workflowId = e.scope.kind === 'workflow' ? e.scope.workflowId : null;
    const values = Prisma.join(
      [
        id,
        e.scope.workspaceId ?? DEFAULT_WORKSPACE_ID,
        e.scope.kind,
        workflowId,
        scopeKey(e.scope),
        e.content,
        contentHash(e.content),
        e.embedderId,
      ],
      ', ',
    );
    // xmax = 0 only for a freshly inserted row: tells "new" from "refreshed" in the same statement.
    const rows = await this.prisma.$queryRaw<{ id: string; created: boolean }[]>`
      INSERT INTO "agent_memories" (${MEMORY_COLUMNS})
      VALUES (${values},
              ${JSON.stringify(e.embedding)}::jsonb, ${NOW_UTC}, ${NOW_UTC})
      ON CONFLICT ("scope_key", "content_hash") DO UPDATE
        SET "embedding" = EXCLUDED."embedding", "embedder_id" = EXCLUDED."embedder_id", "updated_at" = ${NOW_UTC}
      RETURNING "id", (xmax = 0) AS "created"`;
    const row = await this.prisma.agentMemory.findUniqueOrThrow({ where: { id: rows[0].id } });
    return { record: toRecord(row as unknown as Row), created: rows[0].created === true };
  }

  async candidates(scopes: MemoryScope[], embedderId: string, limit: number): Promise<MemoryRecord[]> {
    const rows = await this.prisma.agentMemory.findMany({
      where: { scopeKey: { in: [...new Set(scopes.map(scopeKey))] }, embedderId },
      orderBy: { updatedAt: 'desc' },
      take: limit,
    });
    return rows.map((r) => toRecord(r as unknown as Row));
  }
}
