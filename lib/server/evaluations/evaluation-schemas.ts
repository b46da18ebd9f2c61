/**
 * The bodies of the evaluations API (issue 36): starting an evaluation, and a workflow's publish gate. Scorers are
 * validated by their own schema (engine/evaluation/scorers.ts); two scorers may not share a name, as the summary is
 * keyed by it.
 */
import { z } from 'zod';
import { scorerSchema } from '@/engine/evaluation/scorers';
import { SUMMARY_KEYS } from './summary';

export const MAX_CONCURRENCY = 16;
export const DEFAULT_CONCURRENCY = 4;

const scorersSchema = z
  .array(scorerSchema)
  .min(1, 'give at least one scorer')
  .max(20, 'at most 20 scorers')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((s, i) => {
      if ((SUMMARY_KEYS as readonly string[]).includes(s.name))
        ctx.addIssue({
          code: 'custom',
          message: `"${s.name}" is a key of the summary: name the scorer otherwise`,
          path: [i, 'name'],
        });
      if (seen.has(s.name))
        ctx.addIssue({ code: 'custom', message: `two scorers are named "${s.name}"`, path: [i, 'name'] });
      seen.add(s.name);
    });
  });

const concurrencySchema = z
  .number()
  .int('concurrency is a whole number')
  .min(1, 'concurrency is 1 to 16')
  .max(MAX_CONCURRENCY, 'concurrency is 1 to 16');

/** POST /api/workflows/:id/evaluations. `version`: a published version's number, or `draft` (the default). */
export const createEvaluationSchema = z.strictObject({
  datasetId: z.string().min(1).max(100),
  /** The dataset's version to use; default its current one. */
  datasetVersion: z.number().int().positive().optional(),
  version: z.union([z.number().int().positive(), z.literal('draft')]).default('draft'),
  scorers: scorersSchema,
  concurrency: concurrencySchema.default(DEFAULT_CONCURRENCY),
});
export type CreateEvaluationBody = z.output<typeof createEvaluationSchema>;

const perScorer = z.record(z.string().min(1).max(100), z.number().min(0).max(1));

/**
 * `PATCH /api/workflows/:id/publish { gate }`: publishing evaluates the draft on `datasetId` with `scorers` and
 * refuses it when a scorer's mean is under `minMean[scorer]`, or has dropped by more than `maxDrop[scorer]` from the
 * published version's mean on the same rows. `gate: null` removes it.
 */
export const gateSchema = z
  .strictObject({
    datasetId: z.string().min(1).max(100),
    scorers: scorersSchema,
    minMean: perScorer.optional(),
    maxDrop: perScorer.optional(),
    concurrency: concurrencySchema.optional(),
  })
  .superRefine((g, ctx) => {
    const names = new Set(g.scorers.map((s) => s.name));
    for (const key of ['minMean', 'maxDrop'] as const)
      for (const name of Object.keys(g[key] ?? {}))
        if (!names.has(name))
          ctx.addIssue({ code: 'custom', message: `no scorer is named "${name}"`, path: [key, name] });
    if (!g.minMean && !g.maxDrop)
      ctx.addIssue({ code: 'custom', message: 'give minMean, maxDrop or both', path: ['minMean'] });
  });
export type GateBody = z.output<typeof gateSchema>;
