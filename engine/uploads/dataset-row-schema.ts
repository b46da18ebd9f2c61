/**
 * One row of an evaluation dataset as a request gives it (JSON rows, a JSONL line): the Start inputs of a run and,
 * optionally, what a good run answers (`expected`) and tags to filter by. Here, beside the upload readers, because an
 * uploaded file's rows are checked in a worker thread (dataset-file.ts) as well as in the API.
 */
import { z } from 'zod';

export const datasetRowSchema = z.strictObject({
  inputs: z.record(z.string().min(1).max(200), z.unknown()),
  expected: z.unknown().optional(),
  tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
});
