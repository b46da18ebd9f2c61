// Guarantees: the agent harness keeps a misbehaving model or tool from running away — the loop guard warns on the
// 3rd near-duplicate call and blocks the 5th, running out of rounds fails the node with a clear error, a hanging
// tool is timed out at its limit (and a slow batch at the batch limit) while the loop goes on, and a call to a
// tool the node did not select is denied and never executed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { agentGraph, createAgentHarness, spyTool, type AgentHarness } from './support/agent-harness';

const toolMessages = (req: any) => req.messages.filter((m: any) => m.role === 'tool');
const lastToolMessages = (req: any) => {
  const out: any[] = [];
  for (let i = req.messages.length - 1; i >= 0 && req.messages[i].role === 'tool'; i--) out.unshift(req.messages[i]);
  return out;
};

describe('agent harness safety', () => {
  let fake: FakeOpenAi;
  let h: AgentHarness;
  const counter = spyTool('counter', async () => 'counted');
  const secret = spyTool('secret_tool', async () => 'should never run');
  const hang = spyTool('hang', () => new Promise(() => {})); // ignores its signal on purpose

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await createAgentHarness({
      llm: createLlmResolver({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseURL }),
      tools: [counter.tool, secret.tool, hang.tool],
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    for (const s of [counter, secret, hang]) s.reset();
  });

  it('loop guard: warns on the 3rd near-duplicate call, blocks the 5th and tells the model', async () => {
    // The same arguments, spelled five ways (key order, whitespace, string spacing/case).
    const spellings = [
      '{"q":"same","n":1}',
      '{"n":1,"q":"same"}',
      '{ "q" : "same" , "n" : 1 }',
      '{"n":1.0,"q":"  same "}',
      '{"q":"SAME","n":1}',
    ];
    fake.script(
      ...spellings.map((args, i) => ({ toolCalls: [{ id: `c${i + 1}`, name: 'counter', arguments: args }] })),
      { text: 'giving up on counting' },
    );
    const wf = await h.createWorkflow(agentGraph({ tools: ['counter'] }));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.answer).toBe('giving up on counting');

    expect(counter.calls).toHaveLength(4); // the 5th was not executed
    const results = fake.requests.slice(1).map((r) => lastToolMessages(r)[0]);
    expect(results.map((m) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(results[0].content).toBe('counted');
    expect(results[1].content).toBe('counted');
    expect(results[2].content).toMatch(/^counted\n\n\[loop guard warning: this is call 3 of "counter"/);
    expect(results[3].content).toMatch(/^counted\n\n\[loop guard warning: this is call 4/);
    expect(results[4].content).toMatch(
      /^policy denied: loop guard: "counter" was called with the same arguments 5 times/,
    );

    const events = await h.events(run.id);
    const denied = events.filter((e) => e.type === 'tool.denied');
    expect(denied).toHaveLength(1);
    expect(denied[0].data).toMatchObject({ toolCallId: 'c5', name: 'counter', reason: 'loop_guard', round: 5 });
    const warned = events.filter((e) => e.type === 'tool.result' && e.data.warning);
    expect(warned.map((e) => e.data.toolCallId)).toEqual(['c3', 'c4']);
  });

  it('different arguments are not a loop', async () => {
    fake.script(...[1, 2, 3, 4, 5].map((n) => ({ toolCalls: [{ name: 'counter', arguments: { n } }] })), {
      text: 'done',
    });
    const run = await h.runToEnd(await h.createWorkflow(agentGraph({ tools: ['counter'] })));
    expect(run.status).toBe('succeeded');
    expect(counter.calls).toHaveLength(5);
    expect(
      fake.requests
        .at(-1)
        .messages.filter((m: any) => m.role === 'tool')
        .every((m: any) => m.content === 'counted'),
    ).toBe(true);
  });

  it('max rounds exceeded → the node fails with AGENT_MAX_ROUNDS and says what to change', async () => {
    fake.script(
      { toolCalls: [{ name: 'counter', arguments: { n: 1 } }] },
      { toolCalls: [{ name: 'counter', arguments: { n: 2 } }] },
    );
    const wf = await h.createWorkflow(agentGraph({ tools: ['counter'], limits: { maxRounds: 2 } }));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('AGENT_MAX_ROUNDS');
    expect(run.error?.message).toMatch(/all 2 rounds without a final answer/);
    expect(run.error?.message).toMatch(/maxRounds/);
    expect(fake.requests).toHaveLength(2);
    expect(counter.calls).toHaveLength(1); // round 2's calls are not executed: there is no round left to use them
    const node = (await h.store.getNodeRuns(run.id)).find((n) => n.nodeId === 'a1')!;
    expect(node.status).toBe('failed');
    expect(node.error?.code).toBe('AGENT_MAX_ROUNDS');
    expect((await h.events(run.id)).filter((e) => e.type === 'agent.step')).toHaveLength(2);
  });

  it('a hanging tool is timed out at its limit and the loop continues', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'h1', name: 'hang', arguments: {} },
          { id: 'k1', name: 'counter', arguments: { n: 9 } },
        ],
      },
      { text: 'carried on without it' },
    );
    const wf = await h.createWorkflow(agentGraph({ tools: ['hang', 'counter'], limits: { toolTimeoutMs: 300 } }));
    const t0 = Date.now();
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(run.outputs?.answer).toBe('carried on without it');
    expect(Date.now() - t0).toBeLessThan(10_000);
    const msgs = lastToolMessages(fake.requests[1]);
    expect(msgs[0]).toEqual({
      role: 'tool',
      tool_call_id: 'h1',
      content: 'tool timed out: "hang" did not finish within 300 ms',
    });
    expect(msgs[1]).toEqual({ role: 'tool', tool_call_id: 'k1', content: 'counted' });
    const result = (await h.events(run.id)).find((e) => e.type === 'tool.result' && e.data.toolCallId === 'h1')!;
    expect(result.data.status).toBe('timeout');
    expect(result.data.durationMs).toBeGreaterThanOrEqual(295);
    expect(result.data.durationMs).toBeLessThan(3000);
  });

  it('a round whose calls outlast the batch limit times out as a batch', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'b1', name: 'hang', arguments: { x: 1 } },
          { id: 'b2', name: 'hang', arguments: { x: 2 } },
        ],
      },
      { text: 'batch over' },
    );
    const wf = await h.createWorkflow(
      agentGraph({ tools: ['hang'], limits: { toolTimeoutMs: 60_000, batchTimeoutMs: 300 } }),
    );
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    const msgs = lastToolMessages(fake.requests[1]);
    expect(msgs.map((m) => m.tool_call_id)).toEqual(['b1', 'b2']);
    for (const m of msgs)
      expect(m.content).toBe('tool timed out: the 2 tool call(s) of round 1 did not all finish within 300 ms');
  });

  it('a call to a tool the node did not select is denied and nothing is executed', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'd1', name: 'secret_tool', arguments: { please: true } }, // exists in the app, not selected
          { id: 'd2', name: 'http_fetch', arguments: { url: 'https://example.com' } }, // a built-in, not selected
          { id: 'd3', name: 'rm_rf', arguments: {} }, // exists nowhere
          { id: 'd4', name: 'calculator', arguments: { expression: '1+1' } },
        ],
      },
      { text: 'ok' },
    );
    const wf = await h.createWorkflow(agentGraph({ tools: ['calculator'] }));
    const run = await h.runToEnd(wf);
    expect(run.status).toBe('succeeded');
    expect(secret.calls).toHaveLength(0);
    expect(fake.requests[0].tools.map((t: any) => t.function.name)).toEqual(['calculator']);
    const msgs = toolMessages(fake.requests[1]);
    expect(msgs.map((m: any) => m.tool_call_id)).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(msgs[0].content).toBe(
      'policy denied: tool "secret_tool" is not available to this agent; available tools: calculator',
    );
    expect(msgs[1].content).toMatch(/^policy denied: tool "http_fetch" is not available/);
    expect(msgs[2].content).toMatch(/^policy denied: tool "rm_rf" is not available/);
    expect(msgs[3].content).toBe('2');
    const events = await h.events(run.id);
    const denied = events.filter((e) => e.type === 'tool.denied');
    expect(denied.map((e) => [e.data.toolCallId, e.data.reason])).toEqual([
      ['d1', 'not_allowed'],
      ['d2', 'not_allowed'],
      ['d3', 'not_allowed'],
    ]);
    expect(events.filter((e) => e.type === 'tool.called').map((e) => e.data.toolCallId)).toEqual(['d4']);
    const step = events.find((e) => e.type === 'agent.step')!;
    for (const d of denied) expect(d.parentSpanId).toBe(step.spanId);
  });

  it('the token budget stops a run that keeps calling tools, with a clear error', async () => {
    fake.script(
      { toolCalls: [{ name: 'counter', arguments: { n: 1 } }], usage: { prompt_tokens: 700, completion_tokens: 100 } },
      { toolCalls: [{ name: 'counter', arguments: { n: 2 } }], usage: { prompt_tokens: 900, completion_tokens: 100 } },
    );
    const run = await h.runToEnd(
      await h.createWorkflow(agentGraph({ tools: ['counter'], limits: { tokenBudget: 1500 } })),
    );
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('AGENT_TOKEN_BUDGET');
    expect(run.error?.message).toMatch(/used 1800 tokens, over its budget of 1500/);
    expect(counter.calls).toHaveLength(1);
  });

  it('cancelling the run aborts a tool in flight at once', async () => {
    fake.script({ toolCalls: [{ id: 'c1', name: 'hang', arguments: { forever: true } }] });
    const wf = await h.createWorkflow(agentGraph({ tools: ['hang'] }));
    const { run } = await h.runs.start({ workflow: (await h.store.getWorkflow(wf))!, inputs: {} });
    for (let i = 0; i < 200 && hang.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(hang.calls).toHaveLength(1);
    const t0 = Date.now();
    await h.runs.cancel(run.id);
    await h.runs.waitFor(run.id);
    expect(Date.now() - t0).toBeLessThan(5000);
    const done = (await h.store.getRun(run.id))!;
    expect(done.status).toBe('cancelled');
    expect(fake.requests).toHaveLength(1);
  });

  it(
    'tool errors go back to the model as classified text ' + '(SSRF refusal = policy denied, bad input = tool failed)',
    async () => {
      fake.script(
        {
          toolCalls: [
            { id: 'e1', name: 'http_fetch', arguments: { url: 'http://169.254.169.254/latest/meta-data/' } },
            { id: 'e2', name: 'calculator', arguments: { expression: 'constructor.constructor("return process")()' } },
            { id: 'e3', name: 'calculator', arguments: '{not json' },
          ],
        },
        { text: 'handled' },
      );
      const run = await h.runToEnd(await h.createWorkflow(agentGraph({ tools: ['http_fetch', 'calculator'] })));
      expect(run.status).toBe('succeeded');
      const msgs = toolMessages(fake.requests[1]);
      expect(msgs[0].content).toMatch(/^policy denied: Blocked request to 169\.254\.169\.254/);
      expect(msgs[1].content).toMatch(/^tool failed: unexpected character "\."/);
      expect(msgs[2].content).toMatch(/^tool failed: the arguments are not valid JSON/);
    },
  );
});
