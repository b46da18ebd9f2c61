/**
 * Request shapes of the datasets API (zod; failures are 400s with a JSON path). A row is the Start inputs of one run
 * and, optionally, what a good run answers (`expected`) and tags to filter by.
 */
import { z } from 'zod';
import { datasetRowSchema } from '@/engine/uploads/dataset-row-schema';
import { nameSchema } from '@/engine/text/names';

/** Rows per dataset (and per upload): enough for a serious evaluation, small enough to keep a version in one row. */
export const MAX_DATASET_ROWS = 10_000;

export { datasetRowSchema };

const rowsSchema = z.array(datasetRowSchema).max(MAX_DATASET_ROWS, `at most ${MAX_DATASET_ROWS} rows`);
const descriptionSchema = z.string().max(2000);

export const createDatasetSchema = z.strictObject({
  name: nameSchema(200),
  description: descriptionSchema.default(''),
  rows: rowsSchema,
});

export const patchDatasetSchema = z.strictObject({
  name: nameSchema(200).optional(),
  description: descriptionSchema.optional(),
  rows: rowsSchema.optional(),
});

/** Rows to add after the current ones, as given. */
export const appendGivenRowsSchema = z.strictObject({ rows: rowsSchema.min(1, 'rows needs at least one row') });

/** A row taken from a past run of the workspace: its inputs, and its outputs as the expectation if asked. */
export const appendRunRowSchema = z.strictObject({
  runId: z.string().min(1).max(100),
  expectOutputs: z.boolean().default(false),
  tags: datasetRowSchema.shape.tags,
});
