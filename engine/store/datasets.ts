/**
 * Evaluation datasets (issue 36): a workspace's named rows of inputs and expectations, kept per version. Every change
 * of the rows writes the next version and leaves the earlier ones as they were, so an evaluation that names a version
 * reads exactly the rows it ran. Every call names the workspace: a dataset of another one is not found.
 */

/** One case of a dataset: the Start inputs of a run and, optionally, what a good run answers. */
export interface DatasetRow {
  inputs: Record<string, unknown>;
  expected?: unknown;
  tags?: string[];
}

export interface DatasetSummary {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  /** The current version (1 at creation). */
  version: number;
  rowCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface DatasetRecord extends DatasetSummary {
  /** The rows of `version`: the current one, or the one asked for. */
  rows: DatasetRow[];
}

export interface NewDataset {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  rows: DatasetRow[];
}

/** A new dataset whose rows the caller has as JSON text (an upload read in a worker thread). */
export interface NewDatasetFromJson extends Omit<NewDataset, 'rows'> {
  /** The rows as a JSON array, stored as it is: neither parsed nor serialised again on the way. */
  rowsJson: string;
  rowCount: number;
}

export interface DatasetPatch {
  name?: string;
  description?: string;
  /** The whole new row list: written as the next version. */
  rows?: DatasetRow[];
}

export interface DatasetStore {
  create(dataset: NewDataset): Promise<DatasetRecord>;
  /**
   * The same from rows as JSON text, which a large upload's rows stay until they are read: parsing and serialising
   * megabytes of rows would hold up the event loop.
   */
  createFromJson(dataset: NewDatasetFromJson): Promise<DatasetSummary>;
  /** Newest first, without rows. */
  list(workspaceId: string): Promise<DatasetSummary[]>;
  /** `version` omitted: the current one. Null when the dataset or that version does not exist in the workspace. */
  get(workspaceId: string, id: string, version?: number): Promise<DatasetRecord | null>;
  /** Null when the dataset does not exist in the workspace. New rows make the next version. */
  update(workspaceId: string, id: string, patch: DatasetPatch): Promise<DatasetRecord | null>;
  /**
   * Adds rows after the current ones as the next version, atomically: two appends at once both land, in some order.
   * Null when the dataset does not exist in the workspace.
   */
  append(workspaceId: string, id: string, rows: DatasetRow[]): Promise<DatasetRecord | null>;
  /** With every version. False when it did not exist in the workspace. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}
