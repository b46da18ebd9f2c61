/**
 * CheckpointStore (../checkpoints.ts) on the app database, in plain SQL through the driver (migration
 * 0022_graph_checkpoints): a checkpoint is one row, its channel values one row per channel version (a value that did
 * not change is not written again), its pending writes one row per task and index. Reads take three queries whatever
 * the number of checkpoints: the rows, then their blobs and their writes by key.
 */
import type {
  CheckpointBlobRow,
  CheckpointPlace,
  CheckpointQuery,
  CheckpointRow,
  CheckpointStore,
  CheckpointWriteRow,
} from '../checkpoints';
import type { SqlRunner, SqlTx } from './migrator';

interface StoredCheckpoint {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** `INSERT … VALUES ($1, …), ($k, …)` for `rows` of `width` parameters each. */
function valuesList(rows: number, width: number, casts: string[] = []): string {
  const param = (r: number, c: number) => `$${r * width + c + 1}${casts[c] ? `::${casts[c]}` : ''}`;
  const row = (r: number) => `(${Array.from({ length: width }, (_, c) => param(r, c)).join(', ')})`;
  return Array.from({ length: rows }, (_, r) => row(r)).join(', ');
}

const bytes = (b: unknown): Uint8Array | null => (b == null ? null : new Uint8Array(b as ArrayBufferLike));

export class PrismaCheckpointStore implements CheckpointStore {
  constructor(private readonly db: SqlRunner) {}

  async put(row: Omit<CheckpointRow, 'blobs' | 'writes'>, blobs: CheckpointBlobRow[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (blobs.length) {
        await tx.query(
          `INSERT INTO graph_checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
           VALUES ${valuesList(blobs.length, 6, ['', '', '', '', '', 'bytea'])}
           ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING`,
          blobs.flatMap((b) => [row.threadId, row.checkpointNs, b.channel, b.version, b.type, b.blob]),
        );
      }
      await tx.query(
        `INSERT INTO graph_checkpoints
           (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)
         ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
         DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`,
        [
          row.threadId,
          row.checkpointNs,
          row.checkpointId,
          row.parentCheckpointId,
          JSON.stringify(row.checkpoint),
          JSON.stringify(row.metadata),
        ],
      );
    });
  }

  async putWrites(place: CheckpointPlace & { checkpointId: string }, writes: CheckpointWriteRow[]): Promise<void> {
    if (!writes.length) return;
    const insert = (tx: SqlTx, rows: CheckpointWriteRow[], onConflict: string) =>
      rows.length
        ? tx.query(
            `INSERT INTO graph_checkpoint_writes
               (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, task_path)
             VALUES ${valuesList(rows.length, 9, ['', '', '', '', 'int', '', '', 'bytea', ''])}
             ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) ${onConflict}`,
            rows.flatMap((w) => [
              place.threadId,
              place.checkpointNs,
              place.checkpointId,
              w.taskId,
              w.idx,
              w.channel,
              w.type,
              w.blob,
              w.taskPath,
            ]),
          )
        : Promise.resolve();
    await this.db.transaction(async (tx) => {
      await insert(
        tx,
        writes.filter((w) => w.idx >= 0),
        'DO NOTHING',
      );
      await insert(
        tx,
        writes.filter((w) => w.idx < 0),
        `DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob,
           task_path = EXCLUDED.task_path`,
      );
    });
  }

  async get(place: CheckpointPlace, checkpointId?: string): Promise<CheckpointRow | null> {
    const [row] = await this.list({ ...place, ...(checkpointId ? { checkpointId } : {}), limit: 1 });
    return row ?? null;
  }

  async list(q: CheckpointQuery): Promise<CheckpointRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: (p: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (q.threadId !== undefined) add((p) => `thread_id = ${p}`, q.threadId);
    if (q.checkpointNs !== undefined) add((p) => `checkpoint_ns = ${p}`, q.checkpointNs);
    if (q.checkpointId !== undefined) add((p) => `checkpoint_id = ${p}`, q.checkpointId);
    if (q.metadata && Object.keys(q.metadata).length) add((p) => `metadata @> ${p}::jsonb`, JSON.stringify(q.metadata));
    if (q.before !== undefined) add((p) => `checkpoint_id < ${p}`, q.before);
    const limit = q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : '';
    const rows = await this.db.query<StoredCheckpoint>(
      `SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata
       FROM graph_checkpoints ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY checkpoint_id DESC${limit}`,
      params,
    );
    if (!rows.length) return [];
    const [blobs, writes] = await Promise.all([this.blobsOf(rows), this.writesOf(rows)]);
    return rows.map((r) => ({
      threadId: r.thread_id,
      checkpointNs: r.checkpoint_ns,
      checkpointId: r.checkpoint_id,
      parentCheckpointId: r.parent_checkpoint_id,
      checkpoint: r.checkpoint,
      metadata: r.metadata,
      blobs: Object.entries((r.checkpoint.channel_versions ?? {}) as Record<string, unknown>)
        .map(([channel, version]) =>
          blobs.get(JSON.stringify([r.thread_id, r.checkpoint_ns, channel, String(version)])),
        )
        .filter((b): b is CheckpointBlobRow => b !== undefined),
      writes: writes.get(JSON.stringify([r.thread_id, r.checkpoint_ns, r.checkpoint_id])) ?? [],
    }));
  }

  /** The blobs of every channel version the rows name, by [thread, namespace, channel, version]. */
  private async blobsOf(rows: StoredCheckpoint[]): Promise<Map<string, CheckpointBlobRow>> {
    const keys = new Map<string, [string, string, string, string]>();
    for (const r of rows) {
      for (const [channel, version] of Object.entries(
        (r.checkpoint.channel_versions ?? {}) as Record<string, unknown>,
      )) {
        const key: [string, string, string, string] = [r.thread_id, r.checkpoint_ns, channel, String(version)];
        keys.set(JSON.stringify(key), key);
      }
    }
    const out = new Map<string, CheckpointBlobRow>();
    if (!keys.size) return out;
    const columns = [0, 1, 2, 3].map((i) => [...keys.values()].map((k) => k[i]));
    const found = await this.db.query<Record<string, unknown>>(
      `SELECT b.thread_id, b.checkpoint_ns, b.channel, b.version, b.type, b.blob
       FROM graph_checkpoint_blobs b
       JOIN unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS k(thread_id, checkpoint_ns, channel, version)
         ON b.thread_id = k.thread_id AND b.checkpoint_ns = k.checkpoint_ns
        AND b.channel = k.channel AND b.version = k.version`,
      columns,
    );
    for (const b of found) {
      out.set(JSON.stringify([b.thread_id, b.checkpoint_ns, b.channel, b.version]), {
        channel: b.channel as string,
        version: b.version as string,
        type: b.type as string,
        blob: bytes(b.blob),
      });
    }
    return out;
  }

  /** The pending writes of the rows, by [thread, namespace, checkpoint id]. */
  private async writesOf(rows: StoredCheckpoint[]): Promise<Map<string, CheckpointWriteRow[]>> {
    const found = await this.db.query<Record<string, unknown>>(
      `SELECT w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.task_id, w.idx, w.channel, w.type, w.blob, w.task_path
       FROM graph_checkpoint_writes w
       JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(thread_id, checkpoint_ns, checkpoint_id)
         ON w.thread_id = k.thread_id AND w.checkpoint_ns = k.checkpoint_ns AND w.checkpoint_id = k.checkpoint_id`,
      [rows.map((r) => r.thread_id), rows.map((r) => r.checkpoint_ns), rows.map((r) => r.checkpoint_id)],
    );
    const out = new Map<string, CheckpointWriteRow[]>();
    for (const w of found) {
      const key = JSON.stringify([w.thread_id, w.checkpoint_ns, w.checkpoint_id]);
      if (!out.has(key)) out.set(key, []);
      out.get(key)!.push(writeRow(w));
    }
    return out;
  }

  async writesTo(
    threadId: string,
    checkpointIds: string[],
    channel: string,
  ): Promise<Map<string, CheckpointWriteRow[]>> {
    const out = new Map<string, CheckpointWriteRow[]>();
    if (!checkpointIds.length) return out;
    const found = await this.db.query<Record<string, unknown>>(
      `SELECT checkpoint_id, task_id, idx, channel, type, blob, task_path FROM graph_checkpoint_writes
       WHERE thread_id = $1 AND checkpoint_id = ANY($2::text[]) AND channel = $3`,
      [threadId, checkpointIds, channel],
    );
    for (const w of found) {
      const id = w.checkpoint_id as string;
      if (!out.has(id)) out.set(id, []);
      out.get(id)!.push(writeRow(w));
    }
    return out;
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const table of ['graph_checkpoint_blobs', 'graph_checkpoint_writes', 'graph_checkpoints'])
        await tx.query(`DELETE FROM ${table} WHERE thread_id = $1`, [threadId]);
    });
  }
}

function writeRow(w: Record<string, unknown>): CheckpointWriteRow {
  return {
    taskId: w.task_id as string,
    idx: Number(w.idx),
    channel: w.channel as string,
    type: w.type as string,
    blob: bytes(w.blob)!,
    taskPath: (w.task_path as string) ?? '',
  };
}
