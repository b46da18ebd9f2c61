// Guarantees: every gallery template, created through POST /api/workflows { templateId } in English and in Chinese,
// validates and runs to `succeeded` offline on the demo model (no OPENAI key, no network): with its Start defaults,
// every `…Url` input pointed at a local server, the workspace's one knowledge base, and any human-input pause
// approved through the API. Each known template also does what its card promises (cites its sources, takes the
// urgent branch, loops three rounds, POSTs its summary, writes only after approval).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as uploadDoc } from '@/app/api/knowledge-bases/[id]/documents/route';
import { GET as runEvents } from '@/app/api/runs/[runId]/events/route';
import { POST as answerRun } from '@/app/api/runs/[runId]/answer/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { DEMO_PREFIX } from '@/engine/llm/demo-provider';
import { TEMPLATES, type TemplateLang } from '@/engine/templates';
import { getApp } from '@/lib/server/app';
import { createKnowledgeBase, waitSettled } from '../knowledge/support/upload-helpers';
import { ownerHeaders } from '../support/owner';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from './api-helpers';

/** What the local receiver got: method, path, headers and JSON body of each request. */
interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}
const received: Received[] = [];
const receiver = createServer((req, res) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (text += c));
  req.on('end', () => {
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* keep the text */
    }
    received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<h1>Refund policy</h1><p>Items may be returned within 30 days.</p>');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    }
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as AddressInfo).port;
const base = `http://127.0.0.1:${port}`;

useFreshDataDir('paiflow-templates-run-');
process.env.SEED_EXAMPLE = '0';
// The SSRF guard refuses loopback addresses; this exact host:port is the trusted receiver of these tests.
process.env.HTTP_ALLOWLIST = `127.0.0.1:${port}`;

const TERMINAL = ['succeeded', 'failed', 'cancelled', 'interrupted'];
/** The handbook in both languages: a question finds the document in its own language. */
const HANDBOOK = [
  {
    title: 'Returns policy',
    text:
      'Returns and refunds. Customers may return any item within 30 days of delivery for a full refund. ' +
      'Refunds are paid to the original payment method within 5 business days.',
  },
  {
    title: '退货政策',
    text: '退货与退款：顾客在收货后 30 天内可以退回任何商品并获得全额退款。退款会在 5 个工作日内原路退回。',
  },
];

let kbId = '';

beforeAll(async () => {
  // Exactly one knowledge base: the RAG template is bound to it on creation (lib/server/workflows/templates.ts).
  kbId = await createKnowledgeBase('Handbook');
  for (const doc of HANDBOOK) {
    const up = await call(uploadDoc, 'POST', `/api/knowledge-bases/${kbId}/documents`, {
      params: { id: kbId },
      body: doc,
    });
    expect(up.status, up.text).toBe(202);
  }
  const docs = await waitSettled(kbId);
  expect(docs.map((d) => d.status)).toEqual(['indexed', 'indexed']);
  // The offline embedder loads in a worker first: seconds alone, minutes on a CI machine running e2e beside it.
}, 300_000);

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
  await new Promise((r) => receiver.close(r));
});

async function runView(runId: string) {
  const a = await call(getRun, 'GET', `/api/runs/${runId}`, { params: { runId } });
  expect(a.status).toBe(200);
  return a.body;
}

/** Polls until the run ends or waits for an answer. */
async function settle(runId: string, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = await runView(runId);
    if (TERMINAL.includes(run.status) || run.status === 'waiting') return run;
    if (Date.now() > until) throw new Error(`run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The answer that approves whatever the waiting node asks: a human-input node by its answer type, a tool call. */
function approval(run: any, nodeId: string): unknown {
  const node = run.graph.nodes.find((n: any) => n.id === nodeId);
  if (node.type !== 'human_input') return { decision: 'approve' };
  const type = node.data.config.answerType ?? 'text';
  return type === 'boolean' ? true : type === 'json' ? {} : 'approved';
}

/** Creates the workflow from the template in `lang`, runs it with its defaults, approving every pause. */
async function runTemplate(id: string, lang: TemplateLang, inputs: Record<string, unknown> = {}, approve = true) {
  const created = await call(createWf, 'POST', `/api/workflows?lang=${lang}`, { body: { templateId: id } });
  expect(created.status, created.text).toBe(201);
  expect(created.body.problems, `${id} (${lang}) has problems`).toEqual([]);
  const wf = created.body;
  const v = await call(validateWf, 'POST', `/api/workflows/${wf.id}/validate`, { params: { id: wf.id } });
  expect(v.body.errors).toEqual([]);
  expect(v.body.ok).toBe(true);

  const declared: Array<{ name: string }> = wf.graph.nodes.find((n: any) => n.type === 'start').data.config.inputs;
  const urls = Object.fromEntries(
    declared.filter((d) => /Url$/.test(d.name)).map((d) => [d.name, `${base}/${id}/${lang}/${d.name}`]),
  );
  const started = await call(startRun, 'POST', `/api/workflows/${wf.id}/runs`, {
    params: { id: wf.id },
    body: { inputs: { ...urls, ...inputs } },
  });
  expect(started.status, started.text).toBe(202);
  const runId: string = started.body.runId;
  let run = await settle(runId);
  const answered: string[] = [];
  while (run.status === 'waiting' && answered.length < 5) {
    const nodeId = run.nodes.find((n: any) => n.status === 'waiting').nodeId;
    answered.push(nodeId);
    const answer = approve ? approval(run, nodeId) : false;
    const a = await call(answerRun, 'POST', `/api/runs/${runId}/answer`, {
      params: { runId },
      body: { nodeId, answer },
    });
    expect(a.status, a.text).toBe(202);
    run = await settle(runId);
  }
  return { wf, run, answered, nodes: Object.fromEntries(run.nodes.map((n: any) => [n.nodeId, n])) as any };
}

async function eventTypes(runId: string): Promise<string[]> {
  const res = await runEvents(
    new Request(`http://localhost/api/runs/${runId}/events`, { headers: await ownerHeaders(await getApp()) }),
    { params: Promise.resolve({ runId }) },
  );
  const text = await res.text();
  return [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
}

const postsTo = (id: string, lang: string) => received.filter((r) => r.path.startsWith(`/${id}/${lang}/`));

/** What each known template's card promises, checked on its run (a template added later is checked by `succeeded`). */
const PROMISES: Record<string, (r: Awaited<ReturnType<typeof runTemplate>>, lang: TemplateLang) => Promise<void>> = {
  'rag-qa': async ({ run, nodes }, lang) => {
    expect(nodes.kb.output.hits.length).toBeGreaterThan(0);
    expect(run.outputs.found).toBe(true);
    expect(run.outputs.sources[0]).toMatchObject({ citation: '[1]', title: HANDBOOK[lang === 'zh' ? 1 : 0].title });
    expect(String(run.outputs.answer)).toContain(DEMO_PREFIX);
  },
  'support-triage': async ({ run }, lang) => {
    expect(run.outputs.route).toBe('urgent');
    expect(String(run.outputs.answer)).toMatch(lang === 'zh' ? /^已升级/ : /^ESCALATED/);
  },
  'draft-review-loop': async ({ run, nodes }) => {
    expect(run.engine).toBe('langgraph');
    // The demo reviewer never writes "VERDICT: APPROVED": the loop ends after its three rounds.
    expect(nodes.draft.attempt).toBe(3);
    expect(nodes.review.attempt).toBe(3);
    expect(nodes.rounds.output.text).toBe('III');
    expect(String(run.outputs.text)).toContain(DEMO_PREFIX);
  },
  'agent-team': async ({ run }) => {
    expect(run.outputs.plan.length).toBeGreaterThanOrEqual(2);
    expect(String(run.outputs.answer)).toContain('52');
  },
  'research-agent': async ({ run, nodes }) => {
    // Offline the demo model asks for no tool: nothing is fetched, and the answer is the demo's.
    expect(nodes.research.output.toolCalls).toEqual([]);
    expect(String(run.outputs.answer)).toContain(DEMO_PREFIX);
    expect(received.some((r) => r.path.startsWith('/research-agent/'))).toBe(false);
  },
  'webhook-summarize-post': async ({ run }, lang) => {
    expect(run.outputs.status).toBe(200);
    const posts = postsTo('webhook-summarize-post', lang);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ method: 'POST', body: { text: run.outputs.summary, source: 'paiflow' } });
    expect(posts[0].headers['idempotency-key']).toMatch(/^run_/);
  },
  'approval-before-http': async ({ run, answered }, lang) => {
    // Acyclic: `auto` runs it on the DAG engine, which pauses for the answer like the state-graph engine.
    expect(run.engine).toBe('dag');
    expect(answered).toEqual(['approve']);
    expect(run.outputs.status).toBe(200);
    const posts = postsTo('approval-before-http', lang);
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toMatchObject({ approved: true, change: { demo: true } });
  },
};

describe.each(['en', 'zh'] as const)('every template in %s', (lang) => {
  it.each(TEMPLATES.map((t) => t.id))('%s runs to succeeded on the demo model', async (id) => {
    const r = await runTemplate(id, lang);
    expect(r.run.status, JSON.stringify(r.run.error)).toBe('succeeded');
    expect(r.run.error).toBeNull();
    const types = await eventTypes(r.run.id);
    expect(types.at(-1)).toBe('run.succeeded');
    await PROMISES[id]?.(r, lang);
  });
});

describe('beyond the defaults', () => {
  it('approval: a rejection ends the run as succeeded without writing anything', async () => {
    const before = postsTo('approval-before-http', 'en').length;
    const { run, nodes } = await runTemplate('approval-before-http', 'en', {}, false);
    expect(run.status).toBe('succeeded');
    expect(run.outputs.status).toBe('Not sent: the change was not approved.');
    expect(nodes.send.status).toBe('skipped');
    expect(postsTo('approval-before-http', 'en')).toHaveLength(before);
  });

  it('research agent: its http_fetch tool reads a page through the SSRF guard when the model asks for it', async () => {
    const page = `${base}/research-agent/page`;
    const { run, nodes } = await runTemplate('research-agent', 'en', {
      question: `What is the refund period?\ncall:http_fetch {"url": "${page}"}`,
    });
    expect(run.status).toBe('succeeded');
    expect(nodes.research.output.toolCalls.map((c: any) => c.name)).toEqual(['http_fetch']);
    expect(received.filter((r) => r.path === '/research-agent/page').map((r) => r.method)).toEqual(['GET']);
    expect(String(run.outputs.answer)).toContain('30 days');
  });

  it('support triage: a routine message in Chinese gets the standard reply', async () => {
    const { run } = await runTemplate('support-triage', 'zh', { message: '请问怎么修改发票抬头？' });
    expect(run.outputs.route).toBe('else');
    expect(String(run.outputs.answer)).toMatch(/^感谢您的留言/);
  });
});
