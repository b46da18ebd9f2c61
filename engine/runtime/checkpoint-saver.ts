/**
 * LangGraph's checkpointer over PaiFlow's database: a `BaseCheckpointSaver` whose checkpoints, channel values (one
 * per version) and pending writes are rows of the CheckpointStore (engine/store/checkpoints.ts), on PGlite or
 * PostgreSQL alike. It passes LangGraph's own conformance suite on both (test/store/). Any LangGraph.js program can
 * pass it as its `checkpointer` (docs/architecture.md shows how).
 */
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  compareWritesSortKeys,
  copyCheckpoint,
  getCheckpointId,
  maxChannelVersion,
  type PendingWrite,
  type SerializerProtocol,
  TASKS,
  WRITES_IDX_MAP,
  writesSortKey,
} from '@langchain/langgraph-checkpoint';
import type { CheckpointRow, CheckpointStore, CheckpointWriteRow } from '../store/checkpoints';

const text = new TextDecoder();

function needThread(config: RunnableConfig, what: string): string {
  const threadId = config.configurable?.thread_id;
  if (typeof threadId !== 'string' || !threadId)
    throw new Error(`${what}: the config has no "thread_id" in "configurable" (pass { configurable: { thread_id } })`);
  return threadId;
}

export class StoreCheckpointSaver extends BaseCheckpointSaver {
  constructor(
    private readonly store: CheckpointStore,
    serde?: SerializerProtocol,
  ) {
    super(serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = config.configurable?.thread_id;
    if (threadId === undefined) return undefined;
    const checkpointNs = (config.configurable?.checkpoint_ns as string | undefined) ?? '';
    const row = await this.store.get({ threadId, checkpointNs }, getCheckpointId(config) || undefined);
    if (!row) return undefined;
    const [tuple] = await this.tuples([row]);
    return tuple;
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const c = config.configurable ?? {};
    const rows = await this.store.list({
      ...(c.thread_id ? { threadId: c.thread_id as string } : {}),
      ...(c.checkpoint_ns !== undefined && c.checkpoint_ns !== null ? { checkpointNs: c.checkpoint_ns as string } : {}),
      ...(c.checkpoint_id ? { checkpointId: c.checkpoint_id as string } : {}),
      ...(options?.filter ? { metadata: options.filter } : {}),
      ...(options?.before?.configurable?.checkpoint_id ? { before: options.before.configurable.checkpoint_id } : {}),
      ...(options?.limit !== undefined ? { limit: options.limit } : {}),
    });
    for (const tuple of await this.tuples(rows)) yield tuple;
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = needThread(config, 'put');
    const checkpointNs = (config.configurable?.checkpoint_ns as string | undefined) ?? '';
    const { channel_values: values, ...rest } = copyCheckpoint(checkpoint);
    const blobs = await Promise.all(
      Object.entries(newVersions).map(async ([channel, version]) => {
        if (!(channel in values)) return { channel, version: String(version), type: 'empty', blob: null };
        const [type, blob] = await this.serde.dumpsTyped(values[channel]);
        return { channel, version: String(version), type, blob };
      }),
    );
    await this.store.put(
      {
        threadId,
        checkpointNs,
        checkpointId: checkpoint.id,
        parentCheckpointId: (config.configurable?.checkpoint_id as string | undefined) ?? null,
        checkpoint: rest,
        metadata: await this.jsonOf(metadata),
      },
      blobs,
    );
    return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId = needThread(config, 'putWrites');
    const checkpointId = config.configurable?.checkpoint_id as string | undefined;
    if (!checkpointId) throw new Error('putWrites: the config has no "checkpoint_id" in "configurable"');
    const rows: CheckpointWriteRow[] = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, blob] = await this.serde.dumpsTyped(value);
        return { taskId, idx: WRITES_IDX_MAP[channel] ?? idx, channel, type, blob, taskPath: taskPath ?? '' };
      }),
    );
    await this.store.putWrites(
      { threadId, checkpointNs: (config.configurable?.checkpoint_ns as string | undefined) ?? '', checkpointId },
      rows,
    );
  }

  deleteThread(threadId: string): Promise<void> {
    return this.store.deleteThread(threadId);
  }

  /**
   * A channel's next version: the counter's next integer plus a random fraction. A value is stored once per version,
   * so a thread forked from an earlier checkpoint must not reuse the versions its first branch wrote (a plain counter
   * would, and the fork would read the other branch's values); versions still grow with every step.
   */
  getNextVersion(current: number | undefined): number {
    return Math.floor(Number(current ?? 0)) + 1 + Math.random();
  }

  /** Metadata as plain JSON, the way the serde writes it (the store filters on it). */
  private async jsonOf(metadata: CheckpointMetadata): Promise<Record<string, unknown>> {
    const [, bytes] = await this.serde.dumpsTyped(metadata);
    return JSON.parse(text.decode(bytes).replace(/\\u0000/g, ''));
  }

  private async tuples(rows: CheckpointRow[]): Promise<CheckpointTuple[]> {
    // Checkpoints written before format 4 kept pending sends as their parent's writes to TASKS.
    const old = rows.filter((r) => Number(r.checkpoint.v) < 4 && r.parentCheckpointId);
    const sends = new Map<string, Map<string, CheckpointWriteRow[]>>();
    for (const threadId of new Set(old.map((r) => r.threadId))) {
      const parents = old.filter((r) => r.threadId === threadId).map((r) => r.parentCheckpointId!);
      sends.set(threadId, await this.store.writesTo(threadId, parents, TASKS));
    }
    return Promise.all(
      rows.map(async (r) => {
        const checkpoint = {
          ...(r.checkpoint as unknown as Checkpoint),
          channel_versions: { ...((r.checkpoint.channel_versions as ChannelVersions | undefined) ?? {}) },
          versions_seen: (r.checkpoint.versions_seen as Checkpoint['versions_seen'] | undefined) ?? {},
          channel_values: Object.fromEntries(
            await Promise.all(
              r.blobs
                .filter((b) => b.type !== 'empty')
                .map(async (b) => [b.channel, await this.serde.loadsTyped(b.type, b.blob!)] as const),
            ),
          ),
        };
        const pending = r.parentCheckpointId ? sends.get(r.threadId)?.get(r.parentCheckpointId) : undefined;
        if (pending) {
          const ordered = sortWrites(pending);
          checkpoint.channel_values[TASKS] = await Promise.all(
            ordered.map((w) => this.serde.loadsTyped(w.type, w.blob)),
          );
          const versions = Object.values(checkpoint.channel_versions);
          checkpoint.channel_versions[TASKS] = versions.length
            ? maxChannelVersion(...versions)
            : this.getNextVersion(undefined);
        }
        const place = { thread_id: r.threadId, checkpoint_ns: r.checkpointNs };
        const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
          sortWrites(r.writes).map(
            async (w) => [w.taskId, w.channel, await this.serde.loadsTyped(w.type, w.blob)] as CheckpointPendingWrite,
          ),
        );
        const [type, bytes] = await this.serde.dumpsTyped(r.metadata);
        return {
          config: { configurable: { ...place, checkpoint_id: r.checkpointId } },
          checkpoint,
          metadata: (await this.serde.loadsTyped(type, bytes)) as CheckpointMetadata,
          ...(r.parentCheckpointId
            ? { parentConfig: { configurable: { ...place, checkpoint_id: r.parentCheckpointId } } }
            : {}),
          pendingWrites,
        };
      }),
    );
  }
}

/** LangGraph's one order of a step's writes (task path, task id, index), as every saver must give them. */
function sortWrites(writes: CheckpointWriteRow[]): CheckpointWriteRow[] {
  return [...writes].sort((a, b) =>
    compareWritesSortKeys(writesSortKey(a.taskPath, a.taskId, a.idx), writesSortKey(b.taskPath, b.taskId, b.idx)),
  );
}
