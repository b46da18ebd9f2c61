// Guarantees: with OTEL_EXPORTER_OTLP_ENDPOINT set, a run is exported over OTLP/HTTP (JSON) as one trace whose spans
// are ours — the trace id derived from the run id, span ids our trace's span ids — with our parent/child structure
// (run → node → agent round → tool call; memory recall under its node), explicit start/end times from the events,
// the GenAI semantic-convention attributes and paiflow.* attributes. Prompts, inputs, outputs, tool arguments and
// results are exported only with OTEL_EXPORT_CONTENT=1; the provider's API key never, in either mode.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '@/engine/agent/memory/hashing-embedder';
import { PrismaMemoryStore } from '@/engine/store/prisma/memory-store';
import { parseSettings } from '@/engine/config/settings';
import type { TraceEvent } from '@/engine/events/types';
import { createLlmResolver } from '@/engine/llm/resolve-provider';
import { startTelemetry } from '@/lib/server/runs/telemetry';
import { agentGraph } from '../agent/support/agent-harness';
import { openTestDb, type TestDb } from '../support/databases';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { createHarness, type Harness } from '../support/harness';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver';

const API_KEY = 'sk-telemetry-secret-4711';
const QUESTION = 'What is six times seven, precisely?';
const CONTENT_KEYS = [
  'gen_ai.output.messages',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'gen_ai.retrieval.query.text',
  'gen_ai.retrieval.documents',
  'paiflow.node.input',
  'paiflow.node.output',
  'paiflow.run.outputs',
];

describe('OpenTelemetry export of runs', () => {
  let fake: FakeOpenAi;
  let tdb: TestDb;
  let h: Harness;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    receiver = await startOtlpReceiver();
    tdb = await openTestDb('pglite');
    h = await createHarness('pglite', {
      tdb,
      llm: createLlmResolver({ OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: fake.baseURL }),
      agent: {
        memory: new PrismaMemoryStore(tdb.db.prisma),
        embedder: new HashingEmbedder(),
        workflowOf: async (runId) => (await h.store.getRun(runId))?.workflowId,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await tdb?.dispose();
    await receiver?.close();
    await fake?.close();
  });

  /** One agent run (a round with a calculator call, then the answer) exported with the given settings. */
  async function exportedRun(env: Record<string, string>) {
    const telemetry = (await startTelemetry(
      parseSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env }),
      h.bus,
      { scheduledDelayMs: 20 },
    ))!;
    expect(telemetry, 'an endpoint turns export on').not.toBeNull();
    receiver.spans.length = 0;
    receiver.bodies.length = 0;
    fake.script(
      {
        toolCalls: [{ id: 'call_calc', name: 'calculator', arguments: { expression: '6 * 7' } }],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      { text: 'The answer is 42.', usage: { prompt_tokens: 200, completion_tokens: 20 } },
    );
    const wf = await h.createWorkflow(agentGraph({ tools: ['calculator'], systemPrompt: 'You are a test agent.' }));
    const run = await h.runToEnd(wf, { question: QUESTION });
    expect(run.status).toBe('succeeded');
    await telemetry.close(); // sends what is queued
    const events = await h.events(run.id);
    const traceId = createHash('sha256').update(run.id).digest('hex').slice(0, 32);
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    return { run, wf, events, spans, traceId };
  }

  const one = (spans: ReceivedSpan[], pred: (s: ReceivedSpan) => boolean, what: string) => {
    const found = spans.filter(pred);
    expect(
      found.map((s) => s.name),
      what,
    ).toHaveLength(1);
    return found[0];
  };
  const spanOf = (events: TraceEvent[], type: string, nodeId?: string) =>
    events.find((e) => e.type === type && (!nodeId || e.nodeId === nodeId))!.spanId;

  it('exports the run, nodes, rounds, tool call and recall with our ids, parents, times and attributes', async () => {
    const { run, wf, events, spans } = await exportedRun({ OTEL_EXPORT_CONTENT: '1', OTEL_SERVICE_NAME: 'pf-test' });
    // One trace per run, its id derived from the run id; every span this run caused is in it.
    expect(receiver.spans.length).toBe(spans.length);
    expect(spans[0].resource['service.name']).toBe('pf-test');

    const runSpan = one(spans, (s) => !s.parentSpanId, 'one root span');
    expect(runSpan.spanId).toBe(spanOf(events, 'run.started'));
    expect(runSpan.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'paiflow.run.id': run.id,
      'paiflow.workflow.id': wf,
      'paiflow.run.status': 'succeeded',
      'paiflow.engine': 'dag',
    });
    expect(runSpan.status.code).toBe(1); // OK
    const started = Date.parse(events[0].ts);
    const ended = Date.parse(events[events.length - 1].ts);
    expect(runSpan.startMs).toBe(started);
    expect(runSpan.endMs).toBe(ended);

    // Nodes: children of the run, with our node spans' ids.
    const nodes = spans.filter((s) => s.parentSpanId === runSpan.spanId);
    expect(nodes.map((s) => s.attributes['paiflow.node.id']).sort()).toEqual(['a1', 'end', 'start']);
    const agent = one(nodes, (s) => s.attributes['paiflow.node.id'] === 'a1', 'the agent node');
    expect(agent.spanId).toBe(spanOf(events, 'node.started', 'a1'));
    expect(agent.attributes).toMatchObject({
      'paiflow.node.type': 'agent',
      'paiflow.node.status': 'succeeded',
      'paiflow.node.attempt': 1,
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.request.model': 'fake-model',
      // An OpenAI-compatible server on an unknown host (the fake one): the API family's name.
      'gen_ai.provider.name': 'openai',
    });
    expect(agent.startMs).toBe(Date.parse(events.find((e) => e.type === 'node.started' && e.nodeId === 'a1')!.ts));
    expect(agent.endMs).toBe(Date.parse(events.find((e) => e.type === 'node.succeeded' && e.nodeId === 'a1')!.ts));

    // Rounds: chat spans under the agent node, timed by their durationMs.
    const rounds = spans
      .filter((s) => s.parentSpanId === agent.spanId && s.attributes['gen_ai.operation.name'] === 'chat')
      .sort((a, b) => Number(a.attributes['paiflow.agent.round']) - Number(b.attributes['paiflow.agent.round']));
    expect(rounds).toHaveLength(2);
    const steps = events.filter((e) => e.type === 'agent.step');
    expect(rounds.map((r) => r.spanId)).toEqual(steps.map((e) => e.spanId));
    expect(rounds[0].kind).toBe(3); // CLIENT: a call to the model
    expect(rounds[0].attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'fake-model',
      'gen_ai.response.model': expect.any(String),
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 10,
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'paiflow.agent.tool_calls': 1,
    });
    expect(rounds[1].attributes['gen_ai.usage.input_tokens']).toBe(200);
    expect(rounds[0].endMs - rounds[0].startMs).toBe(steps[0].data.durationMs);

    // The tool call: under round 1, opened at tool.called and closed at tool.result.
    const tool = one(spans, (s) => s.attributes['gen_ai.operation.name'] === 'execute_tool', 'one tool call');
    expect(tool.parentSpanId).toBe(rounds[0].spanId);
    expect(tool.spanId).toBe(spanOf(events, 'tool.called'));
    expect(tool.name).toBe('execute_tool calculator');
    expect(tool.attributes).toMatchObject({
      'gen_ai.tool.name': 'calculator',
      'gen_ai.tool.call.id': 'call_calc',
      'paiflow.tool.status': 'ok',
    });
    expect(tool.startMs).toBe(Date.parse(events.find((e) => e.type === 'tool.called')!.ts));
    expect(tool.endMs).toBe(Date.parse(events.find((e) => e.type === 'tool.result')!.ts));

    // Memory recall: a retrieval span under the agent node.
    const recall = one(spans, (s) => s.attributes['gen_ai.operation.name'] === 'retrieval', 'one retrieval');
    expect(recall.parentSpanId).toBe(agent.spanId);
    expect(recall.attributes).toMatchObject({ 'paiflow.retrieval.source': 'memory', 'paiflow.retrieval.hits': 0 });

    // Every span we exported is one of our trace's spans (or a node's), and nothing else was sent for this trace.
    expect(spans).toHaveLength(1 + 3 + 2 + 1 + 1);

    // Content, because OTEL_EXPORT_CONTENT=1.
    expect(String(tool.attributes['gen_ai.tool.call.arguments'])).toContain('6 * 7');
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('42');
    expect(String(rounds[1].attributes['gen_ai.output.messages'])).toContain('The answer is 42.');
    expect(String(agent.attributes['paiflow.node.input'])).toContain(QUESTION);
    expect(String(runSpan.attributes['paiflow.run.outputs'])).toContain('The answer is 42.');
    expect(receiver.bodies.join('\n')).not.toContain(API_KEY);
  });

  it('exports no prompt, input, output, argument or result without OTEL_EXPORT_CONTENT=1', async () => {
    const { spans } = await exportedRun({});
    expect(spans).toHaveLength(8);
    for (const s of spans)
      for (const key of CONTENT_KEYS) expect(s.attributes, `${s.name}: ${key}`).not.toHaveProperty(key);
    const sent = receiver.bodies.join('\n');
    expect(sent).not.toContain(QUESTION);
    expect(sent).not.toContain('The answer is 42');
    expect(sent).not.toContain('6 * 7');
    expect(sent).not.toContain(API_KEY);
    // The structure and the non-content attributes are still there.
    const tool = spans.find((s) => s.attributes['gen_ai.tool.name'] === 'calculator')!;
    expect(tool.attributes['gen_ai.tool.call.id']).toBe('call_calc');
  });
});
