/**
 * The offline demo model as a multi-agent team (engine/agent/multi-agent/): it recognises its role by the fixed
 * sentence the node's system message opens with (roles.ts) and answers as that role, deterministically:
 * - planner: a JSON plan (in a fence, after the demo label) that splits the task at its sentences or at "and" into
 *   two independent steps plus one that combines them, or, for a one-part task, a step and a check that depends on it;
 * - worker: reads its own step (the `Your step:` line), so a tool is asked for by what the step needs
 *   (demo-intents.ts), and otherwise answers the step with the results it was given;
 * - reviewer: approves, with feedback that says it is the demo model;
 * - summary: the answer built from the step results.
 * Every text starts with the demo label. No clock, no randomness.
 */
import { RESULT_HEADING, STEP_LINE, TASK_HEADING, type TeamRole } from './team-roles';
import type { ChatMessage } from './types';

const clip = (s: string, n = 200) => {
  const t = s.trim().replace(/\s+/g, ' ');
  return t.length > n ? `${t.slice(0, n)}…` : t;
};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const STEP_RE = new RegExp(`^${escape(STEP_LINE)}(\\S+) — (.*)$`, 'm');
const HEADING_RE = new RegExp(`^${escape(RESULT_HEADING)}(\\S+) — .*?(?: \\(uses ([^)]*)\\))?$`, 'gm');

/** The task in a team member's user message (after the task heading, up to the next section). */
export function taskOf(text: string): string {
  const i = text.indexOf(TASK_HEADING);
  if (i < 0) return text.trim();
  const rest = text.slice(i + TASK_HEADING.length).replace(/^\n/, '');
  const end = rest.search(new RegExp(`\\n\\n(?:${escape(STEP_LINE)}|Results of the steps)`));
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

/** The worker's own step (`Your step: <id> — <description>`), or undefined. */
export function stepOf(text: string): { id: string; description: string } | undefined {
  const m = STEP_RE.exec(text);
  return m ? { id: m[1], description: m[2].trim() } : undefined;
}

/** `### <id> — …` sections and their text, in order (a worker's rejection note is not part of a result). */
function resultsOf(text: string): { id: string; result: string; uses: string[] }[] {
  const heads = [...text.matchAll(HEADING_RE)];
  return heads.map((h, i) => {
    const body = text.slice(h.index! + h[0].length, i + 1 < heads.length ? heads[i + 1].index : text.length);
    const uses = h[2] ? h[2].split(',').map((u) => u.trim()) : [];
    return { id: h[1], result: body.split('\n\nA reviewer rejected')[0].trim(), uses };
  });
}

/** A result quoted in another answer, without the demo label and fingerprint. */
function bare(result: string, prefix: string, n = 160): string {
  return clip(
    result
      .split(prefix)
      .join('')
      .replace(/\s*\(fingerprint [0-9a-f]{8}\)/g, ''),
    n,
  );
}

/** The task's parts: sentences, or clauses joined by "and" (at most two; the rest stays with the second). */
function partsOf(task: string): string[] {
  const parts = task
    .split(/(?<=[.?!;])\s+|(?<=[。？！；])|\s+and\s+|(?:以及|并且)/i)
    .map((p) => p.trim())
    .filter((p) => p.replace(/[\s.?!;。？！；]/g, '').length >= 2);
  return parts.length <= 2 ? parts : [parts[0], parts.slice(1).join(' ')];
}

export function demoPlan(task: string): { id: string; description: string; dependencies: string[] }[] {
  const parts = partsOf(task);
  if (parts.length === 2)
    return [
      { id: 's1', description: `Answer this part of the task: ${parts[0]}`, dependencies: [] },
      { id: 's2', description: `Answer this part of the task: ${parts[1]}`, dependencies: [] },
      {
        id: 's3',
        description: 'Combine the results of s1 and s2 into one answer to the task',
        dependencies: ['s1', 's2'],
      },
    ];
  const whole = parts[0] ?? task.trim();
  return [
    { id: 's1', description: `Work out the task: ${whole}`, dependencies: [] },
    { id: 's2', description: 'Check the result of s1 and write it up as the answer', dependencies: ['s1'] },
  ];
}

/** The text of a worker's step, for the demo's tool intents (never the whole task: that is other steps' work). */
export function workerIntentText(lastUser: string): string | undefined {
  return stepOf(lastUser)?.description;
}

/** The demo's answer in a team role (a worker that has tool results summarises them instead, demo-provider.ts). */
export function demoRoleAnswer(role: TeamRole, msgs: ChatMessage[], prefix: string): string {
  const users = msgs.filter((m) => m.role === 'user').map((m) => m.content);
  const first = users[0] ?? '';
  const last = users[users.length - 1] ?? '';
  switch (role) {
    case 'planner':
      return `${prefix} Plan:\n\`\`\`json\n${JSON.stringify({ steps: demoPlan(taskOf(first)) }, null, 2)}\n\`\`\``;
    case 'reviewer': {
      const step = stepOf(first);
      const verdict = {
        approved: true,
        feedback: `${prefix} The demo reviewer approves every result without judging it (step ${step?.id ?? '?'}).`,
      };
      return `${prefix}\n\`\`\`json\n${JSON.stringify(verdict)}\n\`\`\``;
    }
    case 'summary': {
      // The results no other step built on are the final ones (the others are already in them).
      const results = resultsOf(first);
      const used = new Set(results.flatMap((r) => r.uses));
      const final = results.filter((r) => !used.has(r.id));
      const body = (final.length ? final : results).map((r) => `${r.id}: ${bare(r.result, prefix, 400)}`).join('; ');
      return `${prefix} Answer to "${clip(taskOf(first), 120)}", from ${results.length} steps — ${body}`;
    }
    case 'worker': {
      const step = stepOf(last);
      const deps = resultsOf(last);
      const from = deps.length ? ` — from ${deps.map((d) => `${d.id}: ${bare(d.result, prefix)}`).join('; ')}` : '';
      return `${prefix} Step ${step?.id ?? '?'} done: ${clip(step?.description ?? last, 120)}${from}`;
    }
  }
}
