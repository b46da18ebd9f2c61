/**
 * The datasets API's work (issue 36): create from JSON or an uploaded CSV / JSONL file, read a version, edit (new
 * rows make the next version), add rows — given, or a past run's inputs with its outputs as the expectation — and
 * delete. Everything is scoped to the caller's workspace: another workspace's dataset is a 404.
 */
import { randomUUID } from 'node:crypto';
import { settings } from '@/engine/config/settings';
import { PaiError } from '@/engine/errors';
import { readBytesLimited } from '@/engine/net/read-limited';
import type { DatasetRecord, DatasetRow, DatasetSummary } from '@/engine/store/datasets';
import type { DatasetUpload } from '@/engine/uploads/dataset-upload';
import { readDatasetUploadInWorker } from '@/engine/uploads/parse-in-worker';
import { nameSchema } from '@/engine/text/names';
import { parseInput, readJson } from '@/lib/http/body';
import { z } from 'zod';
import type { App } from '../app-types';
import type { Caller } from '../auth/authenticate';
import { getRunOr404 } from '../workflows/workflows';
import {
  appendGivenRowsSchema,
  appendRunRowSchema,
  createDatasetSchema,
  datasetRowSchema,
  MAX_DATASET_ROWS,
} from './dataset-schemas';

export const newDatasetId = () => `ds_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

export function presentSummary(d: DatasetSummary) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    version: d.version,
    rowCount: d.rowCount,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export function presentDataset(d: DatasetRecord) {
  return { ...presentSummary(d), rows: d.rows };
}

const uploadFieldsSchema = z.strictObject({
  name: nameSchema(200).optional(),
  description: z.string().max(2000).default(''),
});

/**
 * A multipart upload: `file` (CSV or JSONL), and optionally `name` (default: the file's name) and `description`. The
 * body is read with the upload size limit as it streams; the form and the file's rows are read in a worker thread
 * under the dataset limits (engine/uploads/dataset-file.ts) and come back as JSON text, which goes to the store as it
 * is. A JSONL row of the wrong shape is checked again here, so that its error has its path in the request's language.
 */
async function readUpload(req: Request, type: string) {
  const bytes = await readBytesLimited(req, settings().KNOWLEDGE_MAX_UPLOAD_BYTES, {
    code: 'PAYLOAD_TOO_LARGE',
    what: 'upload',
  });
  let upload: DatasetUpload;
  try {
    upload = await readDatasetUploadInWorker(bytes, type, MAX_DATASET_ROWS);
  } catch (e) {
    if (e instanceof PaiError && e.code === 'DATASET_ROW_INVALID') {
      const { index, source } = e.details as { index: number; source: string };
      parseInput(datasetRowSchema, JSON.parse(source), `rows[${index}]`);
    }
    throw e;
  }
  const { name, description } = parseInput(uploadFieldsSchema, upload.fields);
  const fallbackName = upload.filename.replace(/\.[A-Za-z0-9]+$/, '') || 'dataset';
  return { name: name ?? fallbackName, description, rowsJson: upload.rows.rowsJson, rowCount: upload.rows.rowCount };
}

/** POST /api/datasets: JSON `{ name, description?, rows }` or a multipart upload. */
export async function createDataset(app: App, caller: Caller, req: Request): Promise<DatasetSummary> {
  const type = req.headers.get('content-type') ?? '';
  const id = newDatasetId();
  if (/^multipart\/form-data/i.test(type))
    return app.stores.datasets.createFromJson({
      id,
      workspaceId: caller.workspaceId,
      ...(await readUpload(req, type)),
    });
  const body = await readJson(req, createDatasetSchema, { limit: app.config.maxBodyBytes });
  return app.stores.datasets.create({
    id,
    workspaceId: caller.workspaceId,
    name: body.name,
    description: body.description,
    rows: body.rows as DatasetRow[],
  });
}

/** `?version=` of a GET: a positive integer, else a 400 at `version`. */
export function versionParam(req: Request): number | undefined {
  const raw = new URL(req.url).searchParams.get('version');
  if (raw === null) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(raw))
    throw new PaiError('VALIDATION_ERROR', 'version must be a positive whole number', { path: 'version' });
  return Number(raw);
}

export async function getDatasetOr404(app: App, caller: Pick<Caller, 'workspaceId'>, id: string, version?: number) {
  const d = await app.stores.datasets.get(caller.workspaceId, id, version);
  if (!d)
    throw new PaiError(
      'DATASET_NOT_FOUND',
      version ? `dataset ${id} has no version ${version}` : `dataset ${id} not found`,
    );
  return d;
}

/** The rows POST /api/datasets/:id/rows adds: as given, or one row from a past run of the workspace. */
export async function rowsToAppend(app: App, caller: Caller, body: unknown): Promise<DatasetRow[]> {
  // One schema or the other by the body's own key, so a mistake is named at its path, not as "invalid input".
  const fromRun = body !== null && typeof body === 'object' && 'runId' in body;
  if (!fromRun) return parseInput(appendGivenRowsSchema, body).rows as DatasetRow[];
  const parsed = parseInput(appendRunRowSchema, body);
  const run = await getRunOr404(app, caller, parsed.runId);
  if (parsed.expectOutputs && run.status !== 'succeeded')
    throw new PaiError('VALIDATION_ERROR', `run ${run.id} has not succeeded, so it has no outputs to expect`, {
      path: 'expectOutputs',
    });
  return [
    {
      inputs: run.inputs,
      ...(parsed.expectOutputs && run.outputs ? { expected: run.outputs } : {}),
      ...(parsed.tags?.length ? { tags: parsed.tags } : {}),
    },
  ];
}

/** Adds `rows` to `current` (the dataset as the caller found it) as its next version. */
export async function appendRows(app: App, caller: Caller, current: DatasetSummary, rows: DatasetRow[]) {
  if (current.rowCount + rows.length > MAX_DATASET_ROWS)
    throw new PaiError('VALIDATION_ERROR', `a dataset has at most ${MAX_DATASET_ROWS} rows`, { path: 'rows' });
  const d = await app.stores.datasets.append(caller.workspaceId, current.id, rows);
  if (!d) throw new PaiError('DATASET_NOT_FOUND', `dataset ${current.id} not found`);
  return d;
}
