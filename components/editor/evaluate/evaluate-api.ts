/**
 * Typed calls for evaluations (app/api/workflows/:id/evaluations, app/api/evaluations/**). The shapes are the
 * server's own (type-only imports of what its routes answer), so the Evaluate tab and the API cannot drift apart.
 */
import type { z } from 'zod';
import { call } from '@/components/api/client';
import type { compareEvaluations } from '@/lib/server/evaluations/compare';
import type { createEvaluationSchema } from '@/lib/server/evaluations/evaluation-schemas';
import type { presentEvaluation } from '@/lib/server/evaluations/evaluations';

/** What a POST may send: `version` and `concurrency` may be left to their defaults. */
export type NewEvaluation = z.input<typeof createEvaluationSchema>;
export type ScorerBody = NewEvaluation['scorers'][number];
/** GET /api/evaluations/:id: the evaluation with its rows. */
export type EvaluationView = ReturnType<typeof presentEvaluation>;
export type EvaluationRow = NonNullable<EvaluationView['rows']>[number];
export type Comparison = Awaited<ReturnType<typeof compareEvaluations>>;
export type ComparedRow = Comparison['rows'][number];

/** An evaluation is still going while it is queued or running. */
export const isActive = (status: EvaluationView['status']) => status === 'queued' || status === 'running';

const one = (id: string) => `/api/evaluations/${encodeURIComponent(id)}`;
const ofWorkflow = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/evaluations`;

export const evaluateApi = {
  /** 202: the evaluation runs in the background; follow it with `get`. */
  start: (workflowId: string, body: NewEvaluation) =>
    call<{ evaluationId: string; status: EvaluationView['status'] }>('POST', ofWorkflow(workflowId), body),
  get: (id: string, signal?: AbortSignal) => call<EvaluationView>('GET', one(id), undefined, signal),
  /** Newest first, with their summaries (no rows). */
  list: async (workflowId: string) =>
    (await call<{ evaluations: EvaluationView[] }>('GET', ofWorkflow(workflowId))).evaluations,
  cancel: (id: string) => call<EvaluationView>('POST', `${one(id)}/cancel`),
  compare: (a: string, b: string) =>
    call<Comparison>('GET', `/api/evaluations/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`),
};
