/**
 * Planner / Worker / Reviewer. The planner turns the task into a plan of steps (plan.ts; a bad plan is asked for
 * once more with its problems stated, then the node fails with MULTI_AGENT_BAD_PLAN); the steps run in topological
 * batches, at most `maxParallel` at once (run-step.ts: worker, review, retries); the planner's model writes the
 * answer from the step results.
 *
 * Durable like the agent's rounds: the whole state (plan, finished steps, usage so far) is checkpointed after the
 * plan is made and after each step finishes, so a resume, retry or restart neither plans again nor redoes a
 * finished step. Steps that finish together each save the complete state; the runtime serialises the saves and the
 * last one wins, and it holds every step finished by then.
 */
import { PaiError } from '../../errors';
import type { Usage } from '../../llm/types';
import { checkPlan, parsePlan, topologicalBatches, type PlanStep } from './plan';
import { planRetryMessage, plannerMessages, summaryMessages } from './prompts';
import { runStep, type StepRecord } from './run-step';
import { runLimited } from './schedule';
import { preview, Team, type MultiAgentArgs } from './team';

export type { MultiAgentArgs, TeamRole } from './team';
export type { StepRecord } from './run-step';

/** What the node checkpoints. */
export interface MultiAgentState {
  version: 1;
  plan: PlanStep[];
  /** Finished steps by id. */
  steps: Record<string, StepRecord>;
  /** Every call's usage up to the save (calls before a resume count: they were spent). */
  usage: Usage;
}

export interface MultiAgentStepOutput extends StepRecord {
  description: string;
  dependencies: string[];
}

export interface MultiAgentResult {
  answer: string;
  plan: PlanStep[];
  steps: MultiAgentStepOutput[];
  usage: Usage;
  /** Whether this execution continued from a checkpoint. */
  resumed: boolean;
}

function restored(saved: unknown): MultiAgentState | undefined {
  const s = saved as Partial<MultiAgentState> | undefined;
  if (!s || s.version !== 1 || !Array.isArray(s.plan) || !s.steps || typeof s.steps !== 'object') return undefined;
  const check = checkPlan(s.plan, Number.MAX_SAFE_INTEGER);
  if (!check.ok) return undefined;
  const ids = new Set(check.steps.map((p) => p.id));
  const steps = Object.fromEntries(Object.entries(s.steps).filter(([id, r]) => ids.has(id) && r?.id === id));
  const u = s.usage;
  const usage = u && typeof u.inputTokens === 'number' && typeof u.outputTokens === 'number' ? u : undefined;
  return { version: 1, plan: check.steps, steps, usage: usage ?? { inputTokens: 0, outputTokens: 0, cachedTokens: 0 } };
}

export async function runMultiAgent(a: MultiAgentArgs): Promise<MultiAgentResult> {
  const saved = restored((await a.checkpoint?.load())?.state);
  const team = new Team(a, saved?.usage);
  const state: MultiAgentState = saved ?? { version: 1, plan: [], steps: {}, usage: team.usage };
  const save = async () => {
    if (!a.checkpoint) return;
    await a.checkpoint.save({ ...state, steps: { ...state.steps }, usage: team.usage } satisfies MultiAgentState);
  };

  if (saved) {
    a.emit('node.progress', {
      resumed: { planSteps: saved.plan.length, finishedSteps: Object.keys(saved.steps) },
    });
  } else {
    state.plan = await makePlan(team);
    await save();
  }

  const byId = new Map(state.plan.map((s) => [s.id, s]));
  for (const batch of topologicalBatches(state.plan)) {
    const todo = batch.filter((s) => !state.steps[s.id]);
    await runLimited(todo, a.maxParallel, async (step) => {
      const deps = step.dependencies.map((id) => ({ step: byId.get(id)!, result: state.steps[id].result }));
      state.steps[step.id] = await runStep(team, step, deps);
      await save();
    });
  }

  const steps = state.plan.map((p) => ({
    ...state.steps[p.id],
    description: p.description,
    dependencies: p.dependencies,
  }));
  const answer = await summarise(team, state.plan, steps);
  return { answer, plan: state.plan, steps, usage: team.usage, resumed: !!saved };
}

async function makePlan(team: Team): Promise<PlanStep[]> {
  const a = team.a;
  const messages = plannerMessages(a.task, a.maxSteps, a.planner.systemPrompt);
  let problems: string[] = [];
  let last = '';
  for (let ask = 1; ask <= 2; ask++) {
    const t0 = Date.now();
    const res = await team.ask('planner', messages);
    const check = parsePlan(res.text, a.maxSteps);
    last = res.text;
    a.emit(
      'agent.step',
      {
        kind: 'plan',
        title: ask === 1 ? 'plan' : 'plan (asked again)',
        model: res.model,
        providerName: res.providerName,
        text: preview(res.text),
        ...(check.ok ? { steps: check.steps.map((s) => s.id) } : { problems: check.problems }),
        usage: res.usage,
        durationMs: Date.now() - t0,
      },
      { spanId: team.newSpan(), parentSpanId: a.nodeSpanId },
    );
    if (check.ok) return check.steps;
    problems = check.problems;
    messages.push({ role: 'assistant', content: res.text }, planRetryMessage(problems));
  }
  throw new PaiError(
    'MULTI_AGENT_BAD_PLAN',
    `the planner gave no usable plan, also when asked again: ${problems.join('; ')}`,
    { details: { problems, answer: preview(last, 2000), usage: team.usage } },
  );
}

async function summarise(team: Team, plan: PlanStep[], steps: StepRecord[]): Promise<string> {
  const a = team.a;
  const t0 = Date.now();
  const results = plan.map((step, i) => ({ step, result: steps[i].result }));
  const res = await team.ask('planner', summaryMessages(a.task, results, a.planner.systemPrompt));
  a.emit(
    'agent.step',
    {
      kind: 'summary',
      title: 'final answer',
      model: res.model,
      providerName: res.providerName,
      text: preview(res.text),
      usage: res.usage,
      totalUsage: team.usage,
      durationMs: Date.now() - t0,
    },
    { spanId: team.newSpan(), parentSpanId: a.nodeSpanId },
  );
  return res.text;
}
