/** KnowledgeCatalog on Prisma (PGlite or PostgreSQL, same client and migration SQL). */
import type { ErrorJson } from '../../errors';
import type { KnowledgeBase, KnowledgeDocument, PrismaClient } from './generated/client';
import { Prisma } from './generated/client';
import type {
  DocumentPatch,
  DocumentRecord,
  DocumentStatus,
  KnowledgeBasePatch,
  KnowledgeBaseRecord,
  KnowledgeBaseSummary,
  KnowledgeCatalog,
  NewDocument,
  NewKnowledgeBase,
} from '../../knowledge/catalog';
import { UNFINISHED_STATUSES } from '../../knowledge/catalog';
import type { DocumentMetadata, MetadataFilter } from '../../knowledge/metadata';
import type { ChunkingMode } from '../../knowledge/chunking-modes';
import { metadataFilterSql } from './metadata-filter-sql';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

function toKb(r: KnowledgeBase): KnowledgeBaseRecord {
  return {
    id: r.id,
    workspaceId: r.workspaceId,
    name: r.name,
    description: r.description,
    chunkSize: r.chunkSize,
    chunkOverlap: r.chunkOverlap,
    embeddingModel: r.embeddingModel,
    credentialId: r.credentialId ?? null,
    dimension: r.dimension,
    vectorWeight: r.vectorWeight ?? null,
    chunking: r.chunking as ChunkingMode,
    parentChunkSize: r.parentChunkSize ?? null,
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

function toDoc(r: KnowledgeDocument): DocumentRecord {
  return {
    id: r.id,
    knowledgeBaseId: r.knowledgeBaseId,
    title: r.title,
    mime: r.mime,
    status: r.status as DocumentStatus,
    progress: r.progress,
    error: (r.error ?? null) as ErrorJson | null,
    chunkCount: r.chunkCount,
    totalChunks: r.totalChunks ?? null,
    embeddedChunks: r.embeddedChunks,
    charCount: r.charCount,
    byteSize: r.byteSize,
    pages: r.pages ?? null,
    metadata: (r.metadata ?? {}) as DocumentMetadata,
    enabled: r.enabled,
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
    indexedAt: iso(r.indexedAt),
  };
}

export class PrismaKnowledgeCatalog implements KnowledgeCatalog {
  constructor(private readonly prisma: PrismaClient) {}

  countKnowledgeBases() {
    return this.prisma.knowledgeBase.count();
  }

  async createKnowledgeBase(kb: NewKnowledgeBase) {
    return toKb(await this.prisma.knowledgeBase.create({ data: kb }));
  }

  async getKnowledgeBase(id: string, workspaceId?: string) {
    const r = await this.prisma.knowledgeBase.findUnique({ where: { id, ...(workspaceId ? { workspaceId } : {}) } });
    return r ? toKb(r) : null;
  }

  async listKnowledgeBases(workspaceId?: string): Promise<KnowledgeBaseSummary[]> {
    const scope = workspaceId ? { workspaceId } : {};
    const [kbs, counts] = await Promise.all([
      this.prisma.knowledgeBase.findMany({ where: scope, orderBy: { createdAt: 'desc' } }),
      this.prisma.knowledgeDocument.groupBy({
        where: { knowledgeBase: scope },
        by: ['knowledgeBaseId'],
        _count: { _all: true },
        _sum: { chunkCount: true },
      }),
    ]);
    const by = new Map(counts.map((c) => [c.knowledgeBaseId, c]));
    return kbs.map((k) => ({
      ...toKb(k),
      documentCount: by.get(k.id)?._count._all ?? 0,
      chunkCount: by.get(k.id)?._sum.chunkCount ?? 0,
    }));
  }

  async deleteKnowledgeBase(id: string) {
    const r = await this.prisma.knowledgeBase.deleteMany({ where: { id } });
    return r.count > 0;
  }

  async updateKnowledgeBase(id: string, patch: KnowledgeBasePatch) {
    const r = await this.prisma.knowledgeBase.updateMany({ where: { id }, data: patch });
    if (r.count === 0) return null;
    return toKb((await this.prisma.knowledgeBase.findUnique({ where: { id } }))!);
  }

  async createDocument(doc: NewDocument) {
    const { metadata, ...rest } = doc;
    return toDoc(
      await this.prisma.knowledgeDocument.create({
        data: { ...rest, ...(metadata ? { metadata } : {}), status: 'queued', progress: 0 },
      }),
    );
  }

  async getDocument(knowledgeBaseId: string, id: string) {
    const r = await this.prisma.knowledgeDocument.findFirst({ where: { id, knowledgeBaseId } });
    return r ? toDoc(r) : null;
  }

  async listDocuments(knowledgeBaseId: string) {
    return (
      await this.prisma.knowledgeDocument.findMany({
        where: { knowledgeBaseId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      })
    ).map(toDoc);
  }

  async findDocumentsByTitle(knowledgeBaseId: string, title: string) {
    return (
      await this.prisma.knowledgeDocument.findMany({
        where: { knowledgeBaseId, title },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      })
    ).map(toDoc);
  }

  async updateDocument(id: string, patch: DocumentPatch) {
    const { error, indexedAt, ...rest } = patch;
    try {
      const r = await this.prisma.knowledgeDocument.update({
        where: { id },
        data: {
          ...rest,
          ...(error !== undefined
            ? { error: error === null ? Prisma.DbNull : (error as unknown as Prisma.InputJsonValue) }
            : {}),
          ...(indexedAt !== undefined ? { indexedAt: indexedAt ? new Date(indexedAt) : null } : {}),
        },
      });
      return toDoc(r);
    } catch (e) {
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2025') return null; // deleted meanwhile
      throw e;
    }
  }

  async deleteDocument(id: string) {
    return (await this.prisma.knowledgeDocument.deleteMany({ where: { id } })).count > 0;
  }

  async searchableDocumentIds(knowledgeBaseId: string, filter?: MetadataFilter): Promise<string[] | null> {
    const conditions = filter && Object.keys(filter).length ? metadataFilterSql(filter, 2) : null;
    if (!conditions) {
      const off = await this.prisma.knowledgeDocument.count({ where: { knowledgeBaseId, enabled: false } });
      if (off === 0) return null;
    }
    const rows = await this.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `SELECT id FROM knowledge_documents WHERE knowledge_base_id = $1 AND enabled AND (${conditions?.sql ?? 'TRUE'})`,
      knowledgeBaseId,
      ...(conditions?.params ?? []),
    );
    return rows.map((r) => r.id);
  }

  listStaleDocuments(before: Date) {
    return this.prisma.knowledgeDocument.findMany({
      where: { status: { in: UNFINISHED_STATUSES }, updatedAt: { lt: before } },
      select: { id: true, knowledgeBaseId: true },
    });
  }
}
