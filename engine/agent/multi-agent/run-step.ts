/**
 * One step of the plan: a worker agent with a fresh conversation does it (engine/agent/run-agent.ts, the node's tool
 * set), then the reviewer judges the result. A rejected result is done again with the reviewer's feedback in the
 * worker's prompt, at most `maxRetries` times; after that the last result is kept with `approved: false`.
 * Without review the first result is kept with `approved: null` (nobody judged it).
 *
 * Trace: the step is a span under the node's; each attempt (the first, then each retry) a span under the step; the
 * worker's rounds and tool calls, and the review, under their attempt.
 */
import { runAgent } from '../run-agent';
import type { PlanStep } from './plan';
import { REVIEW_RETRY_MESSAGE, reviewerMessages, workerMessages, type StepInput } from './prompts';
import { parseReview, type ReviewVerdict } from './review';
import { preview, type Team } from './team';

export interface StepRecord {
  id: string;
  status: 'succeeded';
  result: string;
  /** true: the reviewer approved; false: still rejected after every retry; null: not reviewed (`review: false`). */
  approved: boolean | null;
  /** Worker runs for this step (1 + retries). */
  attempts: number;
  /** The reviewer's last feedback (empty without review). */
  feedback: string;
}

export async function runStep(
  team: Team,
  step: PlanStep,
  dependencies: StepInput['dependencies'],
): Promise<StepRecord> {
  const a = team.a;
  const stepSpan = team.newSpan();
  a.emit(
    'agent.step',
    {
      kind: 'step',
      stepId: step.id,
      title: `step ${step.id}: ${preview(step.description.split('\n')[0], 80)}`,
      description: preview(step.description),
      dependencies: step.dependencies,
      status: 'running',
    },
    { spanId: stepSpan, parentSpanId: a.nodeSpanId },
  );
  let result = '';
  let approved: boolean | null = null;
  let feedback = '';
  let rejected: StepInput['rejected'];
  let attempts = 0;
  try {
    for (let attempt = 1; attempt <= a.maxRetries + 1; attempt++) {
      attempts = attempt;
      const attemptSpan = team.newSpan();
      a.emit(
        'agent.step',
        {
          kind: attempt === 1 ? 'work' : 'retry',
          stepId: step.id,
          attempt,
          title: attempt === 1 ? `worker on ${step.id}` : `retry ${attempt - 1} of ${step.id}`,
          ...(rejected ? { feedback: preview(rejected.feedback) } : {}),
        },
        { spanId: attemptSpan, parentSpanId: stepSpan },
      );
      result = await work(team, { task: a.task, step, dependencies, rejected }, attempt, attemptSpan);
      if (!a.review) break;
      const verdict = await review(team, step, result, attemptSpan);
      approved = verdict.approved;
      feedback = verdict.feedback;
      if (approved) break;
      rejected = { result, feedback };
    }
  } catch (err) {
    a.emit(
      'node.progress',
      {
        kind: 'step',
        stepId: step.id,
        status: 'failed',
        attempts,
        error: err instanceof Error ? err.message : String(err),
      },
      { spanId: stepSpan, parentSpanId: a.nodeSpanId },
    );
    if (err instanceof Error && err.name !== 'AbortError') err.message = `step "${step.id}": ${err.message}`;
    throw err;
  }
  a.emit(
    'node.progress',
    { kind: 'step', stepId: step.id, status: 'succeeded', approved, attempts, result: preview(result) },
    { spanId: stepSpan, parentSpanId: a.nodeSpanId },
  );
  return { id: step.id, status: 'succeeded', result, approved, attempts, feedback };
}

async function work(team: Team, input: StepInput, attempt: number, span: string): Promise<string> {
  const a = team.a;
  team.assertBudget();
  const chain = team.chain('worker');
  try {
    const r = await runAgent({
      chain,
      messages: workerMessages(input, a.worker.systemPrompt),
      tools: a.tools,
      toolContext: { ...a.toolContext, idempotencyKey: `${a.toolContext.idempotencyKey}:${input.step.id}:${attempt}` },
      limits: { ...a.workerLimits, tokenBudget: Math.max(1, a.tokenBudget - team.tokensUsed) },
      temperature: a.temperature,
      maxTokens: a.maxTokens,
      stream: false,
      signal: a.signal,
      emit: a.emit,
      nodeSpanId: span,
      newSpanId: team.newSpan,
    });
    return r.text;
  } finally {
    team.count(chain);
  }
}

/**
 * The reviewer's verdict. An answer that holds no readable verdict is asked for once more in the same conversation;
 * if that one is unreadable too, it counts as a rejection whose feedback says the verdict could not be read.
 */
async function review(team: Team, step: PlanStep, result: string, parentSpan: string): Promise<ReviewVerdict> {
  const a = team.a;
  const messages = reviewerMessages(a.task, step, result, a.reviewer.systemPrompt);
  let last = '';
  for (let ask = 1; ask <= 2; ask++) {
    const t0 = Date.now();
    const res = await team.ask('reviewer', messages);
    const verdict = parseReview(res.text);
    last = res.text;
    a.emit(
      'agent.step',
      {
        kind: 'review',
        stepId: step.id,
        title: `review of ${step.id}${ask > 1 ? ' (asked again)' : ''}`,
        model: res.model,
        providerName: res.providerName,
        text: preview(res.text),
        readable: !!verdict,
        ...(verdict ? { approved: verdict.approved, feedback: preview(verdict.feedback) } : {}),
        usage: res.usage,
        durationMs: Date.now() - t0,
      },
      { spanId: team.newSpan(), parentSpanId: parentSpan },
    );
    if (verdict) return verdict;
    messages.push({ role: 'assistant', content: res.text }, REVIEW_RETRY_MESSAGE);
  }
  return {
    approved: false,
    feedback:
      'The reviewer gave no readable verdict (a JSON object {"approved", "feedback"}), also when asked again; ' +
      `its answer was: ${preview(last, 400)}`,
  };
}
