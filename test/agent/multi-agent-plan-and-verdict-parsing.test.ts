// Guarantees: a planner's answer is read leniently (a ```json fence, text around it, a bare array, dependsOn) and
// checked strictly (at least one step, at most maxSteps, unique ids, known dependencies, no self-dependency, no
// cycle), each problem stated so the planner can fix it; valid plans run in topological batches in plan order; a
// reviewer's verdict is read leniently and an answer without one is no verdict.
import { describe, expect, it } from 'vitest';
import { extractJson } from '@/engine/agent/multi-agent/json-text';
import { parsePlan, topologicalBatches } from '@/engine/agent/multi-agent/plan';
import { parseReview } from '@/engine/agent/multi-agent/review';
import { runLimited } from '@/engine/agent/multi-agent/schedule';

const plan = (steps: unknown) => JSON.stringify({ steps });
const problems = (text: string, max = 10) => {
  const r = parsePlan(text, max);
  return r.ok ? [] : r.problems;
};

describe('reading JSON from an answer', () => {
  it('finds it in a fence, in the whole text, or as the first balanced object', () => {
    expect(extractJson('Sure!\n```json\n{"a": 1}\n```\nDone.')).toEqual({ a: 1 });
    expect(extractJson(' {"a": [1, 2]} ')).toEqual({ a: [1, 2] });
    expect(extractJson('The plan is {"a": "}{"} and that is all')).toEqual({ a: '}{' });
    expect(extractJson('no json {here')).toBeUndefined();
  });
});

describe('plans', () => {
  it('accepts a fenced object, a bare array, numeric ids and dependsOn', () => {
    const r = parsePlan(
      'Plan:\n```json\n[{"id": 1, "description": "a"}, {"id": "2", "description": "b", "dependsOn": [1]}]\n```',
      10,
    );
    expect(r).toEqual({
      ok: true,
      steps: [
        { id: '1', description: 'a', dependencies: [] },
        { id: '2', description: 'b', dependencies: ['1'] },
      ],
    });
  });

  it('states every problem', () => {
    expect(problems('no plan at all')[0]).toMatch(/no JSON/);
    expect(problems('{"plan": []}')[0]).toMatch(/no "steps" list/);
    expect(problems(plan([]))[0]).toMatch(/no steps/);
    expect(
      problems(
        plan([
          { id: 'a', description: 'x' },
          { id: 'b', description: 'y' },
        ]),
        1,
      )[0],
    ).toMatch(/2 steps, more than the 1 allowed/);
    expect(problems(plan([{ id: 'a' }]))[0]).toMatch(/^steps\[0\]\.description: /);
    expect(
      problems(
        plan([
          { id: 'a', description: 'x' },
          { id: 'a', description: 'y' },
        ]),
      ),
    ).toEqual(['the step id "a" is used more than once; ids must be unique']);
    expect(problems(plan([{ id: 'a', description: 'x', dependencies: ['a', 'q'] }]))).toEqual([
      'step "a" depends on itself',
      'step "a" depends on "q", which is not a step of the plan',
    ]);
    expect(
      problems(
        plan([
          { id: 'a', description: 'x', dependencies: ['c'] },
          { id: 'b', description: 'y', dependencies: ['a'] },
          { id: 'c', description: 'z', dependencies: ['b'] },
        ]),
      ),
    ).toEqual(['the dependencies form a cycle: a → c → b → a']);
  });

  it('runs in topological batches, keeping the plan order within a batch', () => {
    const r = parsePlan(
      plan([
        { id: 'd', description: 'd', dependencies: ['b', 'c'] },
        { id: 'b', description: 'b', dependencies: ['a'] },
        { id: 'a', description: 'a' },
        { id: 'c', description: 'c' },
      ]),
      10,
    );
    if (!r.ok) throw new Error(r.problems.join('; '));
    expect(topologicalBatches(r.steps).map((b) => b.map((s) => s.id))).toEqual([['a', 'c'], ['b'], ['d']]);
  });
});

describe('verdicts', () => {
  it('reads an object in a fence or around text, and yes/no strings', () => {
    expect(parseReview('```json\n{"approved": false, "feedback": "shorter"}\n```')).toEqual({
      approved: false,
      feedback: 'shorter',
    });
    expect(parseReview('Verdict: {"approved": "yes"} — good')).toEqual({ approved: true, feedback: '' });
    expect(parseReview('Looks good')).toBeUndefined();
    expect(parseReview('{"feedback": "no decision"}')).toBeUndefined();
  });
});

describe('a batch with a limit', () => {
  it('starts no new item after a failure, lets running ones finish, and throws the first failure', async () => {
    const done: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const p = runLimited(['slow', 'bad', 'never'], 2, async (item) => {
      if (item === 'bad') {
        release();
        throw new Error('bad failed');
      }
      if (item === 'slow') await gate;
      done.push(item);
    });
    await expect(p).rejects.toThrow('bad failed');
    expect(done).toEqual(['slow']);
  });
});
