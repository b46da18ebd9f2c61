/**
 * The planner's plan: a list of steps `{ id, description, dependencies[] }` read leniently from the model's answer
 * (a JSON object `{ "steps": [...] }` or a bare array, possibly in a ```json fence) and checked strictly: at least one
 * step, at most `maxSteps`, unique ids, dependencies that name other steps of the plan, no cycles. Every problem is
 * described in words the planner can act on when it is asked again.
 */
import { z } from 'zod';
import { extractJson } from './json-text';

export interface PlanStep {
  id: string;
  description: string;
  dependencies: string[];
}

const idSchema = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .pipe(z.string().min(1, 'a step id is empty').max(64, 'a step id is longer than 64 characters'));

const stepSchema = z.object({
  id: idSchema,
  description: z
    .string({ error: 'every step needs a "description" (text)' })
    .trim()
    .min(1, 'a step has an empty description')
    .max(8000, 'a step description is longer than 8000 characters'),
  dependencies: z.array(idSchema, { error: '"dependencies" must be a list of step ids' }).max(100).default([]),
});

/** Common spellings models use for the dependency list. */
function normaliseStep(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  if (o.dependencies !== undefined) return o;
  const alias = o.dependsOn ?? o.depends_on ?? o.deps;
  return alias === undefined ? o : { ...o, dependencies: alias };
}

export type PlanCheck = { ok: true; steps: PlanStep[] } | { ok: false; problems: string[] };

/** Parses and validates a planner's answer. */
export function parsePlan(text: string, maxSteps: number): PlanCheck {
  const json = extractJson(text);
  if (json === undefined)
    return { ok: false, problems: ['the answer contains no JSON; answer with a JSON object { "steps": [...] }'] };
  const list = Array.isArray(json) ? json : (json as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(list))
    return { ok: false, problems: ['the JSON has no "steps" list; answer with a JSON object { "steps": [...] }'] };
  return checkPlan(list.map(normaliseStep), maxSteps);
}

/** Validates a list of steps (already JSON). */
export function checkPlan(list: unknown[], maxSteps: number): PlanCheck {
  if (!list.length) return { ok: false, problems: ['the plan has no steps; give at least one'] };
  if (list.length > maxSteps)
    return { ok: false, problems: [`the plan has ${list.length} steps, more than the ${maxSteps} allowed`] };
  const parsed = z.array(stepSchema).safeParse(list);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.slice(0, 10).map((i) => {
        const at = i.path.length
          ? `steps[${String(i.path[0])}]${i.path.length > 1 ? `.${i.path.slice(1).join('.')}` : ''}`
          : '';
        return at ? `${at}: ${i.message}` : i.message;
      }),
    };
  }
  const steps = parsed.data.map((s) => ({ ...s, dependencies: [...new Set(s.dependencies)] }));
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const s of steps) {
    if (ids.has(s.id)) problems.push(`the step id "${s.id}" is used more than once; ids must be unique`);
    ids.add(s.id);
  }
  for (const s of steps) {
    for (const d of s.dependencies) {
      if (d === s.id) problems.push(`step "${s.id}" depends on itself`);
      else if (!ids.has(d)) problems.push(`step "${s.id}" depends on "${d}", which is not a step of the plan`);
    }
  }
  if (problems.length) return { ok: false, problems };
  const cycle = findCycle(steps);
  if (cycle) return { ok: false, problems: [`the dependencies form a cycle: ${cycle.join(' → ')}`] };
  return { ok: true, steps };
}

/** A cycle's ids (first id repeated at the end), or undefined. Depth-first, iterative. */
function findCycle(steps: PlanStep[]): string[] | undefined {
  const deps = new Map(steps.map((s) => [s.id, s.dependencies]));
  const state = new Map<string, 'open' | 'done'>();
  for (const root of steps) {
    if (state.has(root.id)) continue;
    const path: string[] = [];
    const stack: Array<{ id: string; next: number }> = [{ id: root.id, next: 0 }];
    state.set(root.id, 'open');
    path.push(root.id);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const list = deps.get(top.id) ?? [];
      if (top.next >= list.length) {
        state.set(top.id, 'done');
        stack.pop();
        path.pop();
        continue;
      }
      const d = list[top.next++];
      const st = state.get(d);
      if (st === 'open') return [...path.slice(path.indexOf(d)), d];
      if (st === 'done') continue;
      state.set(d, 'open');
      path.push(d);
      stack.push({ id: d, next: 0 });
    }
  }
  return undefined;
}

/**
 * Topological batches: every step of a batch depends only on steps of earlier batches, so a batch's steps may run
 * at once. Within a batch, the plan's order is kept. The plan must be valid (checkPlan).
 */
export function topologicalBatches(steps: PlanStep[]): PlanStep[][] {
  const level = new Map<string, number>();
  const byId = new Map(steps.map((s) => [s.id, s]));
  const levelOf = (id: string): number => {
    const known = level.get(id);
    if (known !== undefined) return known;
    // Plans are small and acyclic (checked), so the recursion is shallow and ends.
    const l = Math.max(-1, ...byId.get(id)!.dependencies.map(levelOf)) + 1;
    level.set(id, l);
    return l;
  };
  const batches: PlanStep[][] = [];
  for (const s of steps) (batches[levelOf(s.id)] ??= []).push(s);
  return batches.filter(Boolean);
}
