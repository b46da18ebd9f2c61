/**
 * EvaluationStore on Prisma (tables `evaluations`, `evaluation_rows` and `evaluation_gates`). Claims and row ends are
 * conditional updates, so two processes that race for an orphan, or a late result after a cancel, change nothing
 * they should not.
 */
import type { Graph } from '../../graph/schema';
import {
  EVALUATION_ACTIVE,
  type EvaluationGate,
  type EvaluationRecord,
  type EvaluationRowRecord,
  type EvaluationStore,
  type NewEvaluation,
  type RowResult,
} from '../evaluations';
import { Prisma, type Evaluation, type EvaluationRow, type PrismaClient } from './generated/client';

const json = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue));
const active = { in: [...EVALUATION_ACTIVE] };

type Progress = EvaluationRecord['progress'];
const noRows = (): Progress => ({ total: 0, done: 0, running: 0, pending: 0 });

function toRecord(e: Evaluation, progress: Progress): EvaluationRecord {
  return {
    id: e.id,
    workspaceId: e.workspaceId,
    workflowId: e.workflowId,
    version: e.version,
    versionId: e.versionId,
    graph: (e.graph as unknown as Graph | null) ?? null,
    engine: e.engine as EvaluationRecord['engine'],
    datasetId: e.datasetId,
    datasetVersion: e.datasetVersion,
    datasetName: e.datasetName,
    scorers: e.scorers as unknown as EvaluationRecord['scorers'],
    concurrency: e.concurrency,
    status: e.status as EvaluationRecord['status'],
    purpose: e.purpose as EvaluationRecord['purpose'],
    error: (e.error as unknown as EvaluationRecord['error']) ?? null,
    createdBy: e.createdBy,
    createdAt: e.createdAt,
    startedAt: e.startedAt,
    finishedAt: e.finishedAt,
    progress,
  };
}

function toRow(r: EvaluationRow): EvaluationRowRecord {
  return {
    index: r.index,
    inputs: r.inputs as Record<string, unknown>,
    expected: r.expected ?? undefined,
    tags: (r.tags as string[] | null) ?? [],
    runId: r.runId,
    status: r.status as EvaluationRowRecord['status'],
    outputs: (r.outputs as Record<string, unknown> | null) ?? null,
    scores: (r.scores as unknown as EvaluationRowRecord['scores']) ?? null,
    error: (r.error as unknown as EvaluationRowRecord['error']) ?? null,
    durationMs: r.durationMs,
    costUsd: r.costUsd,
  };
}

export class PrismaEvaluationStore implements EvaluationStore {
  constructor(private readonly prisma: PrismaClient) {}

  async create(e: NewEvaluation): Promise<EvaluationRecord> {
    const { rows, ...fields } = e;
    const created = await this.prisma.$transaction(async (tx) => {
      const ev = await tx.evaluation.create({
        data: {
          ...fields,
          graph: json(fields.graph),
          scorers: fields.scorers as unknown as Prisma.InputJsonValue,
          status: 'queued',
        },
      });
      await tx.evaluationRow.createMany({
        data: rows.map((r, index) => ({
          evaluationId: e.id,
          index,
          inputs: r.inputs as Prisma.InputJsonValue,
          expected: json(r.expected),
          tags: json(r.tags?.length ? r.tags : null),
        })),
      });
      return ev;
    });
    return toRecord(created, { ...noRows(), total: rows.length, pending: rows.length });
  }

  async get(workspaceId: string, id: string) {
    const e = await this.prisma.evaluation.findFirst({ where: { id, workspaceId } });
    if (!e) return null;
    return toRecord(e, (await this.progressOf([id])).get(id) ?? noRows());
  }

  async rows(id: string) {
    const rows = await this.prisma.evaluationRow.findMany({ where: { evaluationId: id }, orderBy: { index: 'asc' } });
    return rows.map(toRow);
  }

  async list(workspaceId: string, workflowId: string, limit: number, after?: { createdAt: Date; id: string }) {
    const all = await this.prisma.evaluation.findMany({
      where: {
        workspaceId,
        workflowId,
        ...(after
          ? {
              OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    const progress = await this.progressOf(all.map((e) => e.id));
    return all.map((e) => toRecord(e, progress.get(e.id) ?? noRows()));
  }

  async claim(id: string, ownerId: string, staleBefore: Date) {
    const now = new Date();
    const { count } = await this.prisma.evaluation.updateMany({
      where: {
        id,
        status: active,
        OR: [{ ownerId: null }, { ownerId }, { heartbeatAt: null }, { heartbeatAt: { lt: staleBefore } }],
      },
      data: { ownerId, heartbeatAt: now, status: 'running' },
    });
    if (count) await this.prisma.evaluation.updateMany({ where: { id, startedAt: null }, data: { startedAt: now } });
    return count > 0;
  }

  async heartbeat(id: string, ownerId: string) {
    const { count } = await this.prisma.evaluation.updateMany({
      where: { id, ownerId, status: active },
      data: { heartbeatAt: new Date() },
    });
    return count > 0;
  }

  async orphans(staleBefore: Date) {
    const found = await this.prisma.evaluation.findMany({
      where: { status: active, OR: [{ ownerId: null }, { heartbeatAt: null }, { heartbeatAt: { lt: staleBefore } }] },
      select: { id: true, workspaceId: true },
      orderBy: { createdAt: 'asc' },
    });
    return found;
  }

  async setRowRun(id: string, index: number, runId: string) {
    await this.prisma.evaluationRow.updateMany({
      where: { evaluationId: id, index, status: { in: ['pending', 'running'] } },
      data: { runId, status: 'running' },
    });
  }

  async finishRow(id: string, index: number, r: RowResult) {
    await this.prisma.evaluationRow.updateMany({
      where: { evaluationId: id, index, status: { in: ['pending', 'running'] } },
      data: {
        status: r.status,
        outputs: json(r.outputs),
        scores: json(r.scores),
        error: json(r.error),
        durationMs: r.durationMs === null ? null : Math.round(r.durationMs),
        costUsd: r.costUsd,
        finishedAt: new Date(),
      },
    });
  }

  async finish(id: string, status: 'succeeded' | 'failed' | 'cancelled', error?: { code: string; message: string }) {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.evaluation.updateMany({
        where: { id, status: active },
        data: { status, error: json(error ?? null), finishedAt: new Date(), ownerId: null },
      });
      if (count && status !== 'succeeded')
        await tx.evaluationRow.updateMany({
          where: { evaluationId: id, status: 'pending' },
          data: { status: 'cancelled', finishedAt: new Date() },
        });
      return count > 0;
    });
  }

  async getGate(workflowId: string) {
    const g = await this.prisma.evaluationGate.findUnique({ where: { workflowId } });
    return g ? (g.gate as unknown as EvaluationGate) : null;
  }

  async setGate(workflowId: string, gate: EvaluationGate | null) {
    if (!gate) {
      await this.prisma.evaluationGate.deleteMany({ where: { workflowId } });
      return;
    }
    const value = gate as unknown as Prisma.InputJsonValue;
    await this.prisma.evaluationGate.upsert({
      where: { workflowId },
      create: { workflowId, gate: value },
      update: { gate: value, updatedAt: new Date() },
    });
  }

  private async progressOf(ids: string[]): Promise<Map<string, Progress>> {
    const out = new Map<string, Progress>();
    if (!ids.length) return out;
    const groups = await this.prisma.evaluationRow.groupBy({
      by: ['evaluationId', 'status'],
      where: { evaluationId: { in: ids } },
      _count: { _all: true },
    });
    for (const g of groups) {
      const p = out.get(g.evaluationId) ?? noRows();
      const n = g._count._all;
      p.total += n;
      if (g.status === 'pending') p.pending += n;
      else if (g.status === 'running') p.running += n;
      else p.done += n;
      out.set(g.evaluationId, p);
    }
    return out;
  }
}
