// Guarantees: the seeded example (start → llm → condition → two templates → end) runs offline on the demo model,
// takes the right branch, skips the other, and its outputs say which model answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TEAM_EXAMPLE } from '@/engine/examples/agent-team';
import { SUPPORT_TRIAGE_EXAMPLE } from '@/engine/examples/support-triage';
import { createHarness, type Harness } from '../support/harness';

describe('seeded example on the embedded store', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('routes an urgent message to escalation and skips the standard reply', async () => {
    const wf = await h.createWorkflow(SUPPORT_TRIAGE_EXAMPLE.graph);
    const run = await h.runToEnd(wf, { message: 'Our site is down, this is urgent!' });
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.route).toBe('urgent');
    expect(String(run.outputs?.answer)).toMatch(/^ESCALATED/);
    expect(String(run.outputs?.model)).toMatch(/demo model/i);
    const nodes = Object.fromEntries((await h.store.getNodeRuns(run.id)).map((n) => [n.nodeId, n.status]));
    expect(nodes).toMatchObject({
      start: 'succeeded',
      summarize: 'succeeded',
      route: 'succeeded',
      escalate: 'succeeded',
      reply: 'skipped',
      end: 'succeeded',
    });
    const events = await h.events(run.id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe('run.succeeded');
    expect(events.some((e) => e.type === 'node.token' && e.nodeId === 'summarize')).toBe(true);
  });

  it('routes a routine message to the standard reply', async () => {
    const wf = await h.createWorkflow(SUPPORT_TRIAGE_EXAMPLE.graph);
    const run = await h.runToEnd(wf, { message: 'How do I change my invoice address?' });
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.route).toBe('else');
    expect(String(run.outputs?.answer)).toMatch(/^Thanks for your message/);
  });
});

describe('seeded agent example on the embedded store', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('plans, runs the steps with tools, waits for approval of a tool call, and answers offline', async () => {
    const wf = await h.createWorkflow(AGENT_TEAM_EXAMPLE.graph);
    const run = await h.runToEnd(wf, {});
    expect(run.status).toBe('waiting');
    const team = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'team')!;
    const out = team.output as { answer: string; plan: unknown[]; steps: { status: string; approved: unknown }[] };
    expect(out.plan.length).toBeGreaterThanOrEqual(2);
    expect(out.steps.every((s) => s.status === 'succeeded')).toBe(true);
    expect(out.answer).toContain('52');
    const events = await h.events(run.id);
    const toolNames = events.filter((e) => e.type === 'tool.called').map((e) => e.data.name);
    expect(toolNames).toEqual(expect.arrayContaining(['calculator', 'current_time']));
    expect(events.filter((e) => e.type === 'run.waiting').at(-1)?.data.prompt).toMatchObject({
      kind: 'tool_approval',
      name: 'calculator',
    });

    await h.runs.answer(run.id, 'check', { decision: 'approve' });
    await h.runs.waitFor(run.id);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status).toBe('succeeded');
    expect(String(done.outputs?.check)).toContain('42');
    expect(String(done.outputs?.check)).toMatch(/demo model/i);
  });
});
