/**
 * Guarantee: with OTEL_EXPORTER_OTLP_ENDPOINT set, a run arrives at the collector (OTLP/HTTP, JSON) as one trace
 * whose id derives from the run id: one `invoke_workflow` span for the run, a span per node under it, the agent's
 * rounds under its node and its tool call under the round, with the attributes the README names — and no credential
 * and (OTEL_EXPORT_CONTENT unset) no prompt, input or output in anything sent.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from './support/c-services';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, runToEnd, until } from './support/runs';

const { api, ports } = acceptance();

const SECRET = `otel-secret-${randomBytes(16).toString('hex')}`;
// Letters only, so the demo model's arithmetic rule never reads it as a sum.
const MARKER = `contentmarker${randomBytes(8)
  .toString('hex')
  .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}`;
const CONTENT_KEYS = [
  'paiflow.node.input',
  'paiflow.node.output',
  'paiflow.run.outputs',
  'gen_ai.output.messages',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'gen_ai.retrieval.query.text',
];

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  service?: unknown;
}

/** OTLP JSON ids are hex in the JS exporter; proto3 JSON would use base64. Either way: lower-case hex. */
const hexId = (v: unknown) => {
  const s = String(v ?? '');
  return /^[0-9a-fA-F]*$/.test(s) ? s.toLowerCase() : Buffer.from(s, 'base64').toString('hex');
};

function anyValue(v: any): unknown {
  if (!v || typeof v !== 'object') return v;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(anyValue);
  return v;
}

const attrs = (list: any[] = []) => Object.fromEntries(list.map((a) => [a.key, anyValue(a.value)]));

/** Every span the collector received, flattened. */
function spansOf(bodies: string[]): Span[] {
  const out: Span[] = [];
  for (const text of bodies) {
    const doc = JSON.parse(text);
    for (const rs of doc.resourceSpans ?? []) {
      const service = attrs(rs.resource?.attributes)['service.name'];
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? [])
          out.push({
            traceId: hexId(s.traceId),
            spanId: hexId(s.spanId),
            parentSpanId: s.parentSpanId ? hexId(s.parentSpanId) : undefined,
            name: s.name,
            attributes: attrs(s.attributes),
            service,
          });
    }
  }
  return out;
}

describe('OpenTelemetry export of a run', () => {
  let collector: Receiver;

  beforeAll(async () => {
    // One server on the reserved port: the OTLP collector at /v1/traces, and an echo the HTTP node calls.
    collector = await startReceiver(ports.otlp, (r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(r.path.startsWith('/v1/traces') ? '{}' : JSON.stringify({ echoed: r.headers }));
    });
  });

  afterAll(async () => {
    await collector?.close();
  });

  it('sends the run as one trace: run → nodes → agent rounds → tool call, with the README’s names', async () => {
    const cred = await api.expectStatus(
      api.post('/api/credentials', {
        name: `OTel echo key ${Date.now()}`,
        type: 'http_header',
        data: { name: 'X-Api-Key', value: SECRET },
        hosts: [`127.0.0.1:${ports.otlp}`],
      }),
      201,
    );
    const wf = await createWorkflow(api, `OTel traced ${Date.now()}`, {
      nodes: [
        node('start', 'start', { inputs: [{ name: 'q', type: 'string', required: true }] }),
        node('call', 'http', { url: `${collector.url}/echo?m={{inputs.q}}`, credentialId: cred.id }, 200),
        node(
          'agent',
          'agent',
          { task: '{{inputs.q}} What is 12 * 12?', tools: ['calculator'], memory: { enabled: false } },
          400,
        ),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{agent.output.text}} {{inputs.q}}' }] }, 600),
      ],
      edges: chain('start', 'call', 'agent', 'end'),
    });
    const run = await runToEnd(api, wf, { q: MARKER });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs.answer).toContain('144');
    // The HTTP node did send the credential (so there was a secret that could have leaked).
    const echo = collector.requests.find((r) => r.path.startsWith('/echo'));
    expect(echo?.headers['x-api-key']).toBe(SECRET);

    const traceId = createHash('sha256').update(run.id).digest('hex').slice(0, 32);
    const traceBodies = () => collector.requests.filter((r) => r.path === '/v1/traces');
    const spans = (await until(
      `the trace of run ${run.id} at the collector`,
      async () => {
        const mine = spansOf(traceBodies().map((r) => r.body.toString('utf8'))).filter((s) => s.traceId === traceId);
        return mine.some((s) => s.name.startsWith('execute_tool')) && mine.some((s) => s.name === 'end end')
          ? mine
          : null;
      },
      60_000,
      250,
    ))!;
    for (const r of traceBodies()) expect(String(r.headers['content-type'])).toContain('application/json');

    // One root: the run.
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots).toHaveLength(1);
    const root = roots[0];
    expect(root.name).toBe(`invoke_workflow ${wf}`);
    expect(root.service).toBe('paiflow');
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'paiflow.run.id': run.id,
      'paiflow.workflow.id': wf,
      'paiflow.run.status': 'succeeded',
    });

    // A span per node, each a child of the run's span.
    const nodeSpans = spans.filter((s) => s.attributes['paiflow.node.id'] !== undefined);
    expect(nodeSpans.map((s) => s.name).sort()).toEqual(['agent agent', 'end end', 'http call', 'start start']);
    for (const s of nodeSpans) {
      expect(s.parentSpanId).toBe(root.spanId);
      expect(s.attributes).toMatchObject({
        'paiflow.run.id': run.id,
        'paiflow.node.type': s.name.split(' ')[0],
        'paiflow.node.status': 'succeeded',
        'paiflow.node.attempt': 1,
      });
    }
    const agent = nodeSpans.find((s) => s.name === 'agent agent')!;
    expect(agent.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'paiflow.node.id': 'agent' });

    // The agent's rounds are `chat <model>` spans under its node; the tool call is under a round.
    const rounds = spans.filter((s) => s.parentSpanId === agent.spanId && s.name.startsWith('chat '));
    expect(rounds.length).toBeGreaterThanOrEqual(2);
    for (const r of rounds) {
      expect(r.attributes['gen_ai.operation.name']).toBe('chat');
      expect(typeof r.attributes['gen_ai.usage.input_tokens']).toBe('number');
    }
    const tools = spans.filter((s) => s.name === 'execute_tool calculator');
    expect(tools).toHaveLength(1);
    expect(rounds.map((r) => r.spanId)).toContain(tools[0].parentSpanId);
    expect(tools[0].attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'calculator',
    });
    expect(tools[0].attributes['gen_ai.tool.call.id']).toBeTruthy();

    // Every span of the trace is in this run's tree.
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of spans) if (s.parentSpanId) expect(ids.has(s.parentSpanId), s.name).toBe(true);

    // No credential and no content, in this trace or anywhere the collector was sent.
    for (const s of spans) for (const k of CONTENT_KEYS) expect(s.attributes[k], `${s.name} ${k}`).toBeUndefined();
    for (const r of traceBodies()) {
      const text = r.body.toString('utf8');
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain('12 * 12');
    }
  });
});
