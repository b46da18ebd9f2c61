// Guarantees (shapes seen in real exports, issue 43 §3): a Dify completion or chat app imports as Start → LLM → End
// (the chat's message and history as inputs); a Dify answer inside an iteration is a node of the loop body, never an
// End; an n8n model chosen by an expression becomes a reference, not text the validator refuses; a path that ended at
// a dropped node gets an End node and the report says so on that node; nothing reported as mapped has a problem;
// canvas notes and n8n's do-nothing nodes change nothing and are reported as mapped.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { codeConfigSchema } from '@/engine/nodes/code';
import { convertDify } from '@/lib/server/workflows/import/dify';
import { HAS_CLASSIFIER } from '@/lib/server/workflows/import/dify-classifier';
import { nonStandardImports } from '@/lib/server/workflows/import/dify-code';
import { convertN8n } from '@/lib/server/workflows/import/n8n';
import { demoteEntriesWithProblems, type ImportReport } from '@/lib/server/workflows/import/report';

const registry = createDefaultRegistry();
const corpus = (file: string) => readFileSync(path.join(__dirname, '../fixtures/import-corpus', file), 'utf8');
const errors = (graph: unknown) => validateGraph(graph, registry).errors;
const entries = (r: ImportReport) => [...r.mapped, ...r.approximated, ...r.dropped];

describe('Dify apps without a graph', () => {
  it('a completion app is Start (its form) → LLM (its prompt, with the form values) → End', () => {
    const r = convertDify(corpus('dify/dify--dify-template-SQL-Creator.yml'));
    expect(errors(r.graph)).toEqual([]);
    expect(r.graph.nodes.map((n) => n.type)).toEqual(['start', 'llm', 'end']);
    const llm = r.graph.nodes[1].data.config as { userPrompt: string; model: string };
    expect(llm.userPrompt).toContain('{{inputs.A}}');
    expect(llm.userPrompt).toContain('{{inputs.default_input}}');
    expect(llm.model).toBe('gpt-3.5-turbo');
    expect(r.report.dropped).toEqual([]);
  });

  it("a chat app takes the message as `query` and the conversation's `history`", () => {
    const r = convertDify(corpus('dify/dify--dify-template-Code-Interpreter.yml'));
    expect(errors(r.graph)).toEqual([]);
    const start = r.graph.nodes.find((n) => n.type === 'start')!.data.config as { inputs: Array<{ name: string }> };
    expect(start.inputs.map((i) => i.name)).toEqual(expect.arrayContaining(['query', 'history']));
    const llm = r.graph.nodes.find((n) => n.type === 'llm')!.data.config;
    expect(llm).toMatchObject({ userPrompt: '{{inputs.query}}', history: '{{inputs.history}}' });
    const end = r.graph.nodes.find((n) => n.type === 'end')!.data.config;
    expect(end).toMatchObject({ outputs: [{ name: 'answer' }] });
  });
});

describe('Dify code', () => {
  it("Python runs in the Code node's Python (once it has the option), with Dify's inputs and declared outputs", () => {
    const r = convertDify(corpus('dify/svcvit--json-repair.yml'));
    expect(errors(r.graph)).toEqual([]);
    const node = r.graph.nodes.find((n) => n.type === 'code')!;
    const cfg = node.data.config as Record<string, unknown>;
    expect(cfg.code).toContain('def main(');
    const entry = entries(r.report).find((e) => e.nodeIds.includes(node.id))!;
    if ('language' in codeConfigSchema.shape) {
      expect(cfg).toMatchObject({ language: 'python', outputs: expect.any(Object) });
      expect(entry.why).toMatch(/Python Code node/);
    } else expect(entry.why).toMatch(/fails until rewritten/);
  });

  it('names the packages outside the standard library that a Python import needs', () => {
    expect(nonStandardImports('import json\nfrom jieba import cut\nimport numpy as np, re\n')).toEqual([
      'jieba',
      'numpy',
    ]);
  });
});

describe('Dify question classifier', () => {
  it("is PaiFlow's Question classifier (once registered): a branch per class, other where the first goes", () => {
    const r = convertDify(corpus('dify/dify--dify-template-Email-Assistant-Workflow.yml'));
    expect(errors(r.graph)).toEqual([]);
    const classifiers = r.graph.nodes.filter((n) => n.type === (HAS_CLASSIFIER ? 'question_classifier' : 'llm'));
    expect(classifiers.length).toBeGreaterThan(0);
    if (!HAS_CLASSIFIER) return;
    const q = classifiers[0];
    const classes = (q.data.config as { classes: Array<{ id: string }> }).classes.map((k) => k.id);
    const out = r.graph.edges.filter((e) => e.source === q.id);
    expect(out.map((e) => e.sourceHandle)).toEqual(expect.arrayContaining([...classes, 'other']));
    const first = out.find((e) => e.sourceHandle === classes[0])!.target;
    expect(out.find((e) => e.sourceHandle === 'other')!.target).toBe(first);
  });
});

describe('Dify tools PaiFlow can do', () => {
  it('the time tool is a Code node giving the time as text; the Jina reader an HTTP GET whose body is the text', () => {
    const time = convertDify(corpus('dify/dify--chatflow_time_tool_static_output_workflow.yml'));
    expect(errors(time.graph)).toEqual([]);
    expect(time.graph.nodes.some((n) => n.type === 'code')).toBe(true);
    expect(time.report.dropped).toEqual([]);
    const jina = convertDify(corpus('dify/svcvit--LanguageConsistencyChecker.yml'));
    const http = jina.graph.nodes.filter((n) => n.type === 'http').map((n) => n.data.config as { url: string });
    expect(http.length).toBe(3);
    expect(http[0].url).toMatch(/^https:\/\/r\.jina\.ai\/https:\/\/raw\.githubusercontent\.com\/.*\{\{/);
    expect(JSON.stringify(jina.graph)).not.toMatch(/jina_reader\.output\.text/);
  });
});

describe('Dify answers', () => {
  it('an answer inside an iteration is a Template in the loop body; the last answer is the End', () => {
    const r = convertDify(corpus('dify/dify--iteration_contains_answer.yml'));
    expect(errors(r.graph)).toEqual([]);
    const inner = r.graph.nodes.find((n) => n.data.label === 'Answer In Iteration')!;
    expect(inner.type).toBe('template');
    expect(r.graph.edges.filter((e) => e.source === inner.id).map((e) => e.target)).toEqual(['iteration']);
    expect(r.graph.nodes.filter((n) => n.type === 'end').map((n) => n.data.label)).toEqual(['Final Answer']);
    expect(entries(r.report).find((e) => e.title === 'Answer In Iteration')?.why).toMatch(/loop body/);
  });

  it("the End of a chatflow answers the earlier answers on its path first, as Dify's stream shows them", () => {
    const r = convertDify(corpus('dify/dify--test-answer-order.yml'));
    expect(errors(r.graph)).toEqual([]);
    const templates = r.graph.nodes.filter((n) => n.type === 'template').map((n) => n.id);
    const end = r.graph.nodes.find((n) => n.type === 'end')!.data.config as { outputs: Array<{ value: string }> };
    for (const id of templates) expect(end.outputs[0].value).toContain(`{{${id}.output.text}}`);
  });
});

describe('n8n', () => {
  const workflow = (nodes: object[], connections: object) => ({ name: 'T', nodes, connections });
  const n8n = (name: string, type: string, parameters: object = {}) => ({ name, type, parameters, typeVersion: 1 });

  it('a model chosen by an expression is a reference to that value', () => {
    const r = convertN8n(corpus('n8n/vibe-marketer--1441_Form_Automation_Triggered.json'));
    const llm = r.graph.nodes.find((n) => n.type === 'llm')!.data.config as { model: string };
    expect(llm.model).toBe('{{settings.output.json.model}}');
    expect(errors(r.graph).filter((e) => e.path.includes('.model'))).toEqual([]);
  });

  it('a path that ended at a dropped node ends at an End node, and the report says so on that node', () => {
    const r = convertN8n(
      workflow(
        [
          n8n('Webhook', 'n8n-nodes-base.webhook'),
          n8n('IF', 'n8n-nodes-base.if', { conditions: { boolean: [{ value1: '={{ $json.body.ok }}' }] } }),
          n8n('Answer', 'n8n-nodes-base.respondToWebhook', { respondWith: 'text', responseBody: 'yes' }),
          n8n('Write', 'n8n-nodes-base.set', { values: { string: [{ name: 'x', value: 'no' }] } }),
          n8n('Send mail', 'n8n-nodes-base.gmail'),
        ],
        {
          Webhook: { main: [[{ node: 'IF', index: 0 }]] },
          IF: { main: [[{ node: 'Answer', index: 0 }], [{ node: 'Write', index: 0 }]] },
          Write: { main: [[{ node: 'Send mail', index: 0 }]] },
        },
      ),
    );
    expect(errors(r.graph)).toEqual([]);
    const added = r.graph.nodes.find((n) => n.id.startsWith('end_after_write'))!;
    expect(added.data.config).toEqual({ outputs: [{ name: 'result', value: '{{write.output.json}}' }] });
    expect(r.graph.edges.some((e) => e.source === 'write' && e.target === added.id)).toBe(true);
    expect(r.report.dropped.find((e) => e.title === 'Send mail')?.why).toMatch(/ended here.*End node/);
  });

  it('an expression that is code is reported once, also when its JSON body is kept as text', () => {
    const r = convertN8n(
      workflow(
        [
          n8n('Webhook', 'n8n-nodes-base.webhook'),
          n8n('Respond', 'n8n-nodes-base.respondToWebhook', {
            respondWith: 'json',
            responseBody: '={ "at": {{ $now.toISO() }}, }',
          }),
        ],
        { Webhook: { main: [[{ node: 'Respond', index: 0 }]] } },
      ),
    );
    const why = entries(r.report).find((e) => e.title === 'Respond')!.why;
    expect(why.match(/\$now\.toISO\(\)/g)).toHaveLength(1);
  });

  it("sticky notes, NoOp and disabled nodes change nothing: mapped, the notes' text in the description", () => {
    const r = convertN8n(
      workflow(
        [
          n8n('Start', 'n8n-nodes-base.manualTrigger'),
          n8n('Note', 'n8n-nodes-base.stickyNote', { content: '## How this works' }),
          n8n('Nothing', 'n8n-nodes-base.noOp'),
          { ...n8n('Off', 'n8n-nodes-base.set'), disabled: true },
        ],
        { Start: { main: [[{ node: 'Nothing', index: 0 }]] }, Nothing: { main: [[{ node: 'Off', index: 0 }]] } },
      ),
    );
    expect(r.report.dropped).toEqual([]);
    expect(r.report.mapped.map((e) => e.title)).toEqual(expect.arrayContaining(['Note', 'Nothing', 'Off']));
    expect(r.description).toContain('## How this works');
  });
});

it('an entry whose nodes have a problem is approximated, with the problem as the reason', () => {
  const report: ImportReport = {
    mapped: [{ id: 'a', type: 'llm', title: 'A', nodeIds: ['a'], why: 'An LLM node.', whyZh: 'LLM 节点。' }],
    approximated: [],
    dropped: [],
  };
  const out = demoteEntriesWithProblems(report, [{ message: 'the start node declares no input "x"', nodeIds: ['a'] }]);
  expect(out.mapped).toEqual([]);
  expect(out.approximated[0].why).toMatch(/declares no input "x"/);
});
