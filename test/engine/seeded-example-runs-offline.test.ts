// Guarantees: the seeded example (start → llm → condition → two templates → end) runs offline on the demo model,
// takes the right branch, skips the other, and its outputs say which model answered; it reads English and Chinese
// alike (紧急 is as urgent as "urgent").
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

  it('is bilingual: an urgent Chinese message is escalated, a routine one gets a reply in both languages', async () => {
    const wf = await h.createWorkflow(SUPPORT_TRIAGE_EXAMPLE.graph);
    for (const message of ['紧急：支付页面打不开，客户无法付款', '网站宕机了，请尽快处理']) {
      const run = await h.runToEnd(wf, { message });
      expect(run.status).toBe('succeeded');
      expect({ message, route: run.outputs?.route }).toEqual({ message, route: 'urgent' });
      expect(String(run.outputs?.answer)).toMatch(/^ESCALATED.*已升级/);
    }
    const routine = await h.runToEnd(wf, { message: '请问怎么修改发票抬头？' });
    expect(routine.outputs?.route).toBe('else');
    expect(String(routine.outputs?.answer)).toMatch(/^Thanks for your message.*感谢您的留言/);
    // The input's description gives a sample in each language.
    const start = SUPPORT_TRIAGE_EXAMPLE.graph.nodes.find((n) => n.type === 'start')!;
    const [input] = (start.data.config as { inputs: Array<{ description: string }> }).inputs;
    expect(input.description).toMatch(/urgent/);
    expect(input.description).toMatch(/紧急/);
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
