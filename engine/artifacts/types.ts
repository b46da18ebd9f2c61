/**
 * Artifacts: files a run produced (speech, images), kept apart from the run's JSON so that a snapshot or an event
 * carries a small reference instead of megabytes of base64. The bytes go to a blob store (a folder under DATA_DIR,
 * or S3-compatible storage); a row per artifact says what they are and which run made them, so an artifact belongs
 * to the workspace of its run's workflow and goes with its run.
 */

/** What a node's output holds for a file: the browser and the published API fetch it by `url`. */
export interface ArtifactRef {
  artifactId: string;
  /** `/api/artifacts/<id>` (editor, signed in); published runs show `/api/v1/runs/<runId>/artifacts/<id>`. */
  url: string;
  contentType: string;
  bytes: number;
  name: string;
}

export interface ArtifactRecord {
  id: string;
  runId: string;
  nodeId: string;
  name: string;
  contentType: string;
  bytes: number;
  sha256: string;
  storageKey: string;
  createdAt: Date;
}

/** An artifact with its bytes. */
export interface StoredArtifact {
  record: ArtifactRecord;
  bytes: Uint8Array;
}

/** Where the bytes are. Keys are `/`-separated, made of [A-Za-z0-9_.-] segments (the store checks). */
export interface BlobStore {
  /** `local` or `s3`, for health output; `location` says where (admins only). */
  readonly kind: 'local' | 's3';
  readonly location: string;
  /** Stores the bytes under `key`, replacing what was there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` with the time it was last written (for the orphan sweep). */
  list(prefix: string): AsyncIterable<{ key: string; modifiedAt: Date }>;
}

/** The rows. Reads by workspace go through the run's workflow; another workspace's artifact is not found. */
export interface ArtifactStore {
  upsert(record: Omit<ArtifactRecord, 'createdAt'>): Promise<ArtifactRecord>;
  get(id: string): Promise<ArtifactRecord | null>;
  /** The artifact, if its run's workflow is in `workspaceId`. */
  getInWorkspace(id: string, workspaceId: string): Promise<ArtifactRecord | null>;
  /** The workspace of a run (null: no such run). */
  workspaceOfRun(runId: string): Promise<string | null>;
  /** Of `keys`, those that have a row. */
  existingKeys(keys: string[]): Promise<Set<string>>;
  /** Deletes up to `limit` artifacts created before `before`, oldest first, and returns them. */
  deleteOlderThan(before: Date, limit: number): Promise<ArtifactRecord[]>;
}

/** What a node sees (NodeContext.artifacts): files of its own run, and reads within its run's workspace. */
export interface NodeArtifacts {
  /**
   * Stores a file of this run. `key` names the operation (e.g. the node's idempotency key plus an index): the same
   * key stores the same artifact id again, so a retried node replaces what its failed attempt stored.
   */
  save(
    runId: string,
    nodeId: string,
    file: { bytes: Uint8Array; contentType: string; name: string; key?: string },
  ): Promise<ArtifactRef>;
  /** An artifact of the run's own workspace by id; another workspace's is ARTIFACT_NOT_FOUND (404). */
  read(runId: string, artifactId: string): Promise<StoredArtifact>;
}
