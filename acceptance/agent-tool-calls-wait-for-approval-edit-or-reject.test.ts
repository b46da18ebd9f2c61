/**
 * Guarantee: an agent whose `toolApproval` names a tool pauses the run (`waiting`) before each such call, showing the
 * call's name and arguments; approving runs the call as asked, editing runs it with the edited arguments (and the
 * model sees that call), rejecting never runs it and the model is told a person refused — on both engines, with the
 * decision and who made it in the trace (README "Tool-call approval").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from './support/c-services';
import { acceptance } from './support/context';
import { OWNER } from './support/server';
import { chain, createWorkflow, node, nodeOf, startRun, waitForRun } from './support/runs';

const { api } = acceptance();

function agentFlow() {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'task', type: 'string', required: true }] }),
      node(
        'agent',
        'agent',
        {
          task: '{{inputs.task}}',
          tools: ['calculator', 'current_time'],
          toolApproval: ['calculator'],
          memory: { enabled: false },
        },
        200,
      ),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{agent.output.text}}' }] }, 400),
    ],
    edges: chain('start', 'agent', 'end'),
  };
}

/** Starts a run and waits until it asks about a tool call; the run and the run.waiting prompt. */
async function untilAsked(wf: string, task: string, engine: 'dag' | 'langgraph') {
  const runId = await startRun(api, wf, { task }, { engine });
  const run = await waitForRun(api, runId, ['waiting', 'succeeded', 'failed', 'cancelled', 'interrupted']);
  expect(run.status, JSON.stringify(run.error)).toBe('waiting');
  expect(nodeOf(run, 'agent').status).toBe('waiting');
  expect(nodeOf(run, 'end').status).toBe('pending');
  const events = await eventsOf(api, runId, (e) => e.json?.type === 'run.waiting');
  const waiting = events.at(-1)!.json;
  expect(waiting.type).toBe('run.waiting');
  // No tool ran before the decision.
  expect(events.some((e) => e.json?.type === 'tool.called' || e.json?.type === 'tool.result')).toBe(false);
  return { runId, run, prompt: waiting.data.prompt };
}

async function answer(runId: string, body: object) {
  const a = await api.expectStatus(api.post(`/api/runs/${runId}/answer`, { nodeId: 'agent', answer: body }), 202);
  expect(a.runId).toBe(runId);
  return waitForRun(api, runId);
}

describe.each(['dag', 'langgraph'] as const)('tool-call approval on the %s engine', (engine) => {
  let wf: string;

  beforeAll(async () => {
    wf = await createWorkflow(api, `Approve tools ${engine} ${Date.now()}`, agentFlow());
  });

  it('waits with the call, and runs it as asked once approved', async () => {
    const { runId, run, prompt } = await untilAsked(wf, 'What is 17 * 3?', engine);
    expect(run.engine).toBe(engine);
    expect(prompt).toMatchObject({ kind: 'tool_approval', name: 'calculator', arguments: { expression: '17 * 3' } });
    expect(prompt.callId).toMatch(/\S/);

    // Only a waiting run takes an answer, and only a known decision.
    const bad = await api.post(`/api/runs/${runId}/answer`, { nodeId: 'agent', answer: { decision: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_ANSWER');

    const done = await answer(runId, { decision: 'approve' });
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs.answer).toContain('51');
    const out = nodeOf(done, 'agent').output;
    expect(out.toolCalls).toEqual([expect.objectContaining({ name: 'calculator', status: 'ok' })]);

    const events = (await eventsOf(api, runId)).map((e) => e.json);
    const approval = events.find((e) => e.type === 'tool.approval');
    expect(approval.data).toMatchObject({ name: 'calculator', decision: 'approve', by: { name: OWNER.name } });
    const result = events.find((e) => e.type === 'tool.result');
    expect(result.data).toMatchObject({ name: 'calculator', ok: true });
    expect(JSON.stringify(result.data.result)).toContain('51');
    expect(events.at(-1).type).toBe('run.succeeded');

    const again = await api.post(`/api/runs/${runId}/answer`, { nodeId: 'agent', answer: { decision: 'approve' } });
    expect(again.status).toBe(409);
  });

  it('never runs a rejected call, tells the model a person refused it, and the run still succeeds', async () => {
    const { runId } = await untilAsked(wf, 'What is 17 * 3?', engine);
    const done = await answer(runId, { decision: 'reject', message: 'no arithmetic today' });
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs.answer).toMatch(/refused this tool call: no arithmetic today/);
    expect(done.outputs.answer).not.toContain('51');
    const out = nodeOf(done, 'agent').output;
    expect(out.toolCalls).toEqual([expect.objectContaining({ name: 'calculator', status: 'denied' })]);

    const events = (await eventsOf(api, runId)).map((e) => e.json);
    expect(events.some((e) => e.type === 'tool.called' || e.type === 'tool.result')).toBe(false);
    expect(events.find((e) => e.type === 'tool.approval').data).toMatchObject({
      decision: 'reject',
      message: 'no arithmetic today',
    });
    expect(events.find((e) => e.type === 'tool.denied').data).toMatchObject({
      name: 'calculator',
      reason: 'rejected',
    });
  });

  it('runs an edited call with the edited arguments instead of the asked ones', async () => {
    const { runId } = await untilAsked(wf, 'What is 17 * 3?', engine);
    const done = await answer(runId, { decision: 'edit', arguments: { expression: '6 * 7' } });
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs.answer).toContain('42');
    expect(done.outputs.answer).not.toContain('51');

    const events = (await eventsOf(api, runId)).map((e) => e.json);
    expect(events.find((e) => e.type === 'tool.approval').data).toMatchObject({
      decision: 'edit',
      arguments: { expression: '6 * 7' },
    });
    const called = events.filter((e) => e.type === 'tool.called');
    expect(called).toHaveLength(1);
    expect(JSON.stringify(called[0].data.args)).toContain('6 * 7');
    expect(JSON.stringify(events.find((e) => e.type === 'tool.result').data.result)).toContain('42');
  });
});
