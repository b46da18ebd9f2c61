/**
 * Document metadata and the filters searches take over it. Metadata is a flat object of strings, numbers and booleans
 * per document; a filter names fields with a value (equal), `{ in: [...] }` (one of), or a range — `gt` / `gte` /
 * `lt` / `lte` with numbers, or with dates (ISO 8601, compared as dates are written: `2026-12-05`, or with a time).
 * Every condition must hold. The catalogue turns a filter into the ids of the documents it keeps (with the disabled
 * ones left out; the store writes it as SQL, metadata-filter-sql.ts), and the knowledge store searches only those,
 * on the embedded index and Elasticsearch alike.
 */
import { z } from 'zod';

export type MetadataValue = string | number | boolean;
export type DocumentMetadata = Record<string, MetadataValue>;

const fieldName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[^\s"'\\]+$/u, 'a field name has no spaces or quotes');
const scalar = z.union([z.string().max(1000), z.number().finite(), z.boolean()]);

export const documentMetadataSchema = z
  .record(fieldName, scalar)
  .refine((m) => Object.keys(m).length <= 32, 'at most 32 metadata fields')
  .describe('Key–value metadata: strings, numbers and booleans');

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const bound = z.union([z.number().finite(), z.string().regex(ISO_DATE, 'a range bound is a number or an ISO date')]);

const condition = z.union([
  scalar,
  z
    .strictObject({
      in: z.array(scalar).min(1).max(100).optional(),
      gt: bound.optional(),
      gte: bound.optional(),
      lt: bound.optional(),
      lte: bound.optional(),
    })
    .refine((c) => Object.keys(c).length > 0, 'name a value, { in: [...] }, or a range (gt, gte, lt, lte)')
    .refine(
      (c) => new Set([c.gt, c.gte, c.lt, c.lte].filter((b) => b !== undefined).map((b) => typeof b)).size <= 1,
      'a range compares numbers or dates, not both',
    ),
]);

export const metadataFilterSchema = z
  .record(fieldName, condition)
  .refine((f) => Object.keys(f).length <= 16, 'at most 16 conditions')
  .describe(
    'Only documents whose metadata matches: each field a value, one of several (in), or a range (gt, gte, lt, lte)',
  );
export type MetadataFilter = z.infer<typeof metadataFilterSchema>;
