/**
 * For multi-agent tests: a graph start(question) → multi_agent `m1` → end(answer, plan, steps), and helpers that read
 * a request at the fake OpenAI-compatible server as one of the team's roles (by the fixed sentence its system message
 * opens with) and its step.
 */
import { STEP_LINE, teamRoleOf, type TeamRole } from '@/engine/llm/team-roles';
import type { Graph } from '@/engine/graph/schema';

export function multiAgentGraph(config: Record<string, unknown>): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'question', type: 'string', required: false, default: 'go' }] } },
      },
      {
        id: 'm1',
        type: 'multi_agent',
        position: { x: 200, y: 0 },
        data: { config: { task: '{{inputs.question}}', ...config } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: {
          config: {
            outputs: [
              { name: 'answer', value: '{{m1.output.answer}}' },
              { name: 'plan', value: '{{m1.output.plan}}' },
              { name: 'steps', value: '{{m1.output.steps}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'm1' },
      { id: 'e2', source: 'm1', target: 'end' },
    ],
  };
}

const textOf = (c: unknown) => (typeof c === 'string' ? c : c == null ? '' : JSON.stringify(c));

/** The team role of a chat request body (its first message is the role's system message). */
export function roleOf(body: any): TeamRole | undefined {
  const system = (body?.messages ?? []).find((m: any) => m?.role === 'system');
  return teamRoleOf(textOf(system?.content));
}

export function lastUserText(body: any): string {
  const users = (body?.messages ?? []).filter((m: any) => m?.role === 'user');
  return textOf(users[users.length - 1]?.content);
}

/** The step a worker or reviewer request is about (`Your step: <id> — …`). */
export function stepOf(body: any): string | undefined {
  const users = (body?.messages ?? []).filter((m: any) => m?.role === 'user');
  for (const u of users) {
    const line = textOf(u.content)
      .split('\n')
      .find((l) => l.startsWith(STEP_LINE));
    if (line) return line.slice(STEP_LINE.length).split(' ')[0];
  }
  return undefined;
}

/** `role` or `role:step` of every request so far, in arrival order. */
export function requestLog(requests: any[]): string[] {
  return requests.map((b) => {
    const role = roleOf(b) ?? 'other';
    const step = role === 'worker' || role === 'reviewer' ? stepOf(b) : undefined;
    return step ? `${role}:${step}` : role;
  });
}

export const count = (log: string[], key: string) => log.filter((k) => k === key).length;

export const planAnswer = (steps: Array<{ id: string; description: string; dependencies: string[] }>) =>
  'Here is the plan:\n```json\n' + JSON.stringify({ steps }) + '\n```';

/** s1 and s2 independent, s3 needs both. */
export const THREE_STEPS = [
  { id: 's1', description: 'find the first fact', dependencies: [] },
  { id: 's2', description: 'find the second fact', dependencies: [] },
  { id: 's3', description: 'combine both facts', dependencies: ['s1', 's2'] },
];
