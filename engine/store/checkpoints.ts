/**
 * Where LangGraph's checkpoints are kept (tables graph_checkpoints, graph_checkpoint_blobs, graph_checkpoint_writes):
 * rows already serialized by the saver (engine/runtime/checkpoint-saver.ts), which owns LangGraph's semantics. One
 * implementation serves PGlite and PostgreSQL; LangGraph's own conformance suite runs on both (test/store/).
 */

/** Where a checkpoint lives: a LangGraph thread and a namespace within it ("" for the root graph). */
export interface CheckpointPlace {
  threadId: string;
  checkpointNs: string;
}

/** One channel's value at one version; `type` is the serde's encoding ("empty": the channel has no value). */
export interface CheckpointBlobRow {
  channel: string;
  version: string;
  type: string;
  blob: Uint8Array | null;
}

/** A task's pending write; `idx` < 0 is one of LangGraph's special writes (error, interrupt, resume…). */
export interface CheckpointWriteRow {
  taskId: string;
  idx: number;
  channel: string;
  type: string;
  blob: Uint8Array;
  taskPath: string;
}

export interface CheckpointRow extends CheckpointPlace {
  checkpointId: string;
  parentCheckpointId: string | null;
  /** The checkpoint without its channel values. */
  checkpoint: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** The blobs of the versions named in `checkpoint.channel_versions`. */
  blobs: CheckpointBlobRow[];
  /** Its pending writes, in no particular order. */
  writes: CheckpointWriteRow[];
}

export interface CheckpointQuery {
  threadId?: string;
  checkpointNs?: string;
  checkpointId?: string;
  /** Checkpoints whose metadata contains this object (JSON containment). */
  metadata?: Record<string, unknown>;
  /** Only checkpoints with an id below this one (ids sort by time). */
  before?: string;
  limit?: number;
}

export interface CheckpointStore {
  /** Stores a checkpoint and the blobs of its new channel versions in one transaction (blobs already kept stay). */
  put(row: Omit<CheckpointRow, 'blobs' | 'writes'>, blobs: CheckpointBlobRow[]): Promise<void>;
  /**
   * Stores a task's writes against a checkpoint in one transaction: a regular write (idx ≥ 0) is kept once (a second
   * put of the same task and index changes nothing), a special one replaces the stored one.
   */
  putWrites(place: CheckpointPlace & { checkpointId: string }, writes: CheckpointWriteRow[]): Promise<void>;
  /** The checkpoint with that id, or the newest of the place when no id is given. */
  get(place: CheckpointPlace, checkpointId?: string): Promise<CheckpointRow | null>;
  /** Checkpoints matching `q`, newest first. */
  list(q: CheckpointQuery): Promise<CheckpointRow[]>;
  /** The writes to channel `channel` against each of `checkpointIds` of a thread (LangGraph's pending sends). */
  writesTo(threadId: string, checkpointIds: string[], channel: string): Promise<Map<string, CheckpointWriteRow[]>>;
  /** Removes every checkpoint, blob and write of a thread. */
  deleteThread(threadId: string): Promise<void>;
}
