/**
 * The fixed first sentence of each multi-agent role's system message. The node's prompts start with them and the
 * offline demo model (engine/llm/demo-roles.ts) recognises its role by them, so they live in one place and carry no
 * imports (the LLM layer reads them without depending on the agent runtime).
 */
export const PLANNER_ROLE = 'You are the planner of a PaiFlow multi-agent team.';
export const WORKER_ROLE = 'You are a worker of a PaiFlow multi-agent team.';
export const REVIEWER_ROLE = 'You are the reviewer of a PaiFlow multi-agent team.';
/** The planner model writing the team's final answer from the step results. */
export const SUMMARY_ROLE = 'You write the final answer of a PaiFlow multi-agent team.';

export type TeamRole = 'planner' | 'worker' | 'reviewer' | 'summary';

/** The role a system message opens with, if any. */
export function teamRoleOf(system: string | undefined): TeamRole | undefined {
  const s = system?.trimStart() ?? '';
  if (s.startsWith(PLANNER_ROLE)) return 'planner';
  if (s.startsWith(WORKER_ROLE)) return 'worker';
  if (s.startsWith(REVIEWER_ROLE)) return 'reviewer';
  if (s.startsWith(SUMMARY_ROLE)) return 'summary';
  return undefined;
}

/** In the worker's and reviewer's user message: the line that names the step (`Your step: <id> — <description>`). */
export const STEP_LINE = 'Your step: ';
/** In the summary's user message (and the worker's): each result opens with `### <id> — <description>`. */
export const RESULT_HEADING = '### ';
/** In every role's user message: the task comes after this line, up to the next blank line + heading. */
export const TASK_HEADING = 'Task of the team:';
