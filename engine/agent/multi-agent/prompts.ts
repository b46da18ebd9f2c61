/**
 * What each role of the team is told. Every system message opens with its role's fixed sentence (roles.ts), then
 * the node's instructions for that role, then the user's own `systemPrompt` for the role. A worker sees only the
 * task, its own step and the results of the steps it depends on; the reviewer sees the task, the step and the
 * result; the summary sees the task and every step's result.
 */
import type { ChatMessage } from '../../llm/types';
import type { PlanStep } from './plan';
import {
  PLANNER_ROLE,
  RESULT_HEADING,
  REVIEWER_ROLE,
  STEP_LINE,
  SUMMARY_ROLE,
  TASK_HEADING,
  WORKER_ROLE,
} from '../../llm/team-roles';

/** A result quoted to another role is cut at this many characters (the worker keeps its full result). */
const QUOTE_CHARS = 12_000;

const quote = (s: string, n = QUOTE_CHARS) => (s.length > n ? `${s.slice(0, n)}\n…(cut)` : s);

function system(role: string, instructions: string, own: string): ChatMessage {
  const extra = own.trim();
  return { role: 'system', content: `${role} ${instructions}${extra ? `\n\n${extra}` : ''}` };
}

const taskBlock = (task: string) => `${TASK_HEADING}\n${task}`;

/** `uses`: the steps it depended on, named in the heading (`(uses s1, s2)`) so the summary can tell final results. */
const resultBlock = (id: string, description: string, result: string, uses: string[] = []) =>
  `${RESULT_HEADING}${id} — ${description.split('\n')[0]}${uses.length ? ` (uses ${uses.join(', ')})` : ''}\n` +
  quote(result);

export function plannerMessages(task: string, maxSteps: number, own: string): ChatMessage[] {
  return [
    system(
      PLANNER_ROLE,
      'Split the task into the steps that other agents will carry out. Each step is done by a worker that sees only ' +
        'the task, its own step and the results of the steps it depends on, so make each description self-contained. ' +
        'Steps that do not need each other must not depend on each other: they run at the same time. ' +
        `Use at most ${maxSteps} steps. Answer with only a JSON object, no other text: ` +
        '{"steps": [{"id": "s1", "description": "…", "dependencies": []}, ' +
        '{"id": "s2", "description": "…", "dependencies": ["s1"]}]}',
      own,
    ),
    { role: 'user', content: taskBlock(task) },
  ];
}

export function planRetryMessage(problems: string[]): ChatMessage {
  return {
    role: 'user',
    content:
      `That plan cannot be used: ${problems.join('; ')}. ` +
      'Answer again with only the corrected JSON object {"steps": [...]}.',
  };
}

export interface StepInput {
  task: string;
  step: PlanStep;
  /** The results of the steps it depends on, in the plan's order. */
  dependencies: Array<{ step: PlanStep; result: string }>;
  /** When redoing a rejected step: the previous answer and the reviewer's feedback. */
  rejected?: { result: string; feedback: string };
}

export function workerMessages(input: StepInput, own: string): ChatMessage[] {
  const parts = [taskBlock(input.task), `${STEP_LINE}${input.step.id} — ${input.step.description}`];
  if (input.dependencies.length)
    parts.push(
      'Results of the steps yours depends on:\n\n' +
        input.dependencies.map((d) => resultBlock(d.step.id, d.step.description, d.result)).join('\n\n'),
    );
  if (input.rejected)
    parts.push(
      `A reviewer rejected your previous answer to this step.\nYour previous answer:\n${quote(input.rejected.result)}` +
        `\n\nReviewer's feedback:\n${input.rejected.feedback || '(no feedback given)'}\n\n` +
        'Do the step again and address the feedback.',
    );
  return [
    system(
      WORKER_ROLE,
      'Carry out your step of the task, and only that step, using the tools you have where they help. ' +
        'Answer with the result of your step; the next steps and the final answer are built from it.',
      own,
    ),
    { role: 'user', content: parts.join('\n\n') },
  ];
}

export function reviewerMessages(task: string, step: PlanStep, result: string, own: string): ChatMessage[] {
  return [
    system(
      REVIEWER_ROLE,
      "Check whether a worker's result accomplishes its step of the task: correct, complete, and on the step. " +
        'Answer with only a JSON object, no other text: {"approved": true or false, "feedback": "…"}; when you ' +
        'reject, say in the feedback what must change.',
      own,
    ),
    {
      role: 'user',
      content:
        `${taskBlock(task)}\n\n${STEP_LINE}${step.id} — ${step.description}\n\n` +
        `The worker's result:\n${quote(result)}`,
    },
  ];
}

export const REVIEW_RETRY_MESSAGE: ChatMessage = {
  role: 'user',
  content:
    'That answer is not a verdict I can read. Answer with only a JSON object {"approved": true or false, ' +
    '"feedback": "…"}.',
};

export function summaryMessages(task: string, results: Array<{ step: PlanStep; result: string }>, own: string) {
  const body = results
    .map((r) => resultBlock(r.step.id, r.step.description, r.result, r.step.dependencies))
    .join('\n\n');
  return [
    system(
      SUMMARY_ROLE,
      "Write the answer to the task from the results of the team's steps. Use what the results say; do not invent " +
        'what they do not say. Answer the task directly; do not describe the steps.',
      own,
    ),
    { role: 'user', content: `${taskBlock(task)}\n\nResults of the steps:\n\n${body}` },
  ] satisfies ChatMessage[];
}
