/**
 * DatasetStore on Prisma (tables `datasets` and `dataset_versions`). A new version is written in one transaction
 * that first bumps the dataset's `version` — the row lock that update takes orders concurrent writers — and then
 * inserts the rows under the number it got.
 */
import type {
  DatasetPatch,
  DatasetRecord,
  DatasetRow,
  DatasetStore,
  DatasetSummary,
  NewDataset,
  NewDatasetFromJson,
} from '../datasets';
import { isPgSafeJson, pgSafe } from './rows';
import type { Dataset, Prisma, PrismaClient } from './generated/client';

type Tx = Prisma.TransactionClient;

const summary = (d: Dataset): DatasetSummary => ({
  id: d.id,
  workspaceId: d.workspaceId,
  name: d.name,
  description: d.description,
  version: d.version,
  rowCount: d.rowCount,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});
const rowsJson = (rows: DatasetRow[]) => rows as unknown as Prisma.InputJsonValue;

export class PrismaDatasetStore implements DatasetStore {
  constructor(private readonly prisma: PrismaClient) {}

  async create(d: NewDataset): Promise<DatasetRecord> {
    const created = await this.prisma.dataset.create({
      data: {
        id: d.id,
        workspaceId: d.workspaceId,
        name: d.name,
        description: d.description,
        rowCount: d.rows.length,
        versions: { create: { version: 1, rows: rowsJson(d.rows) } },
      },
    });
    return { ...summary(created), rows: d.rows };
  }

  async createFromJson(d: NewDatasetFromJson): Promise<DatasetSummary> {
    // Text jsonb cannot hold (a NUL, a lone surrogate) goes the way of any other value, made safe first.
    if (!isPgSafeJson(d.rowsJson)) {
      const { rowsJson, rowCount: _count, ...rest } = d;
      const { rows: _rows, ...created } = await this.create({
        ...rest,
        rows: pgSafe(JSON.parse(rowsJson) as DatasetRow[]),
      });
      return created;
    }
    return this.prisma.$transaction(async (tx) => {
      const created = await tx.dataset.create({
        data: { id: d.id, workspaceId: d.workspaceId, name: d.name, description: d.description, rowCount: d.rowCount },
      });
      await tx.$executeRaw`
        INSERT INTO dataset_versions (dataset_id, version, rows) VALUES (${d.id}, 1, ${d.rowsJson}::jsonb)`;
      return summary(created);
    });
  }

  async list(workspaceId: string) {
    const all = await this.prisma.dataset.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }] });
    return all.map(summary);
  }

  async get(workspaceId: string, id: string, version?: number) {
    const d = await this.prisma.dataset.findFirst({ where: { id, workspaceId } });
    if (!d) return null;
    const v = await this.prisma.datasetVersion.findUnique({
      where: { datasetId_version: { datasetId: id, version: version ?? d.version } },
    });
    if (!v) return null;
    const rows = v.rows as unknown as DatasetRow[];
    // An earlier version reports its own row count.
    return { ...summary(d), version: v.version, rowCount: rows.length, rows };
  }

  async update(workspaceId: string, id: string, patch: DatasetPatch) {
    return this.prisma.$transaction(async (tx) => {
      const found = await tx.dataset.findFirst({ where: { id, workspaceId }, select: { id: true } });
      if (!found) return null;
      if (patch.rows) return this.writeVersion(tx, id, () => Promise.resolve(patch.rows!), patch);
      const d = await tx.dataset.update({
        where: { id },
        data: { name: patch.name, description: patch.description, updatedAt: new Date() },
      });
      const v = await tx.datasetVersion.findUniqueOrThrow({
        where: { datasetId_version: { datasetId: id, version: d.version } },
      });
      return { ...summary(d), rows: v.rows as unknown as DatasetRow[] };
    });
  }

  async append(workspaceId: string, id: string, rows: DatasetRow[]) {
    return this.prisma.$transaction(async (tx) => {
      const found = await tx.dataset.findFirst({ where: { id, workspaceId }, select: { id: true } });
      if (!found) return null;
      return this.writeVersion(tx, id, async (previous) => {
        const v = await tx.datasetVersion.findUniqueOrThrow({
          where: { datasetId_version: { datasetId: id, version: previous } },
        });
        return [...(v.rows as unknown as DatasetRow[]), ...rows];
      });
    });
  }

  async delete(workspaceId: string, id: string) {
    const { count } = await this.prisma.dataset.deleteMany({ where: { id, workspaceId } });
    return count > 0;
  }

  /** Bumps the version (locking the dataset's row), then writes the rows `rowsAfter(previous version)` gives. */
  private async writeVersion(
    tx: Tx,
    id: string,
    rowsAfter: (previous: number) => Promise<DatasetRow[]>,
    patch: Omit<DatasetPatch, 'rows'> = {},
  ): Promise<DatasetRecord> {
    const bumped = await tx.dataset.update({
      where: { id },
      data: { version: { increment: 1 }, name: patch.name, description: patch.description },
    });
    const rows = await rowsAfter(bumped.version - 1);
    await tx.datasetVersion.create({ data: { datasetId: id, version: bumped.version, rows: rowsJson(rows) } });
    const d = await tx.dataset.update({ where: { id }, data: { rowCount: rows.length, updatedAt: new Date() } });
    return { ...summary(d), rows };
  }
}
