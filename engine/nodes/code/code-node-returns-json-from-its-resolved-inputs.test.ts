/**
 * Guarantee: a Code node in a real workflow run runs its `main(input)` on its resolved inputs (typed values from
 * {{refs}}, literals) and its returned JSON is the node's output, which later nodes read; `async main` is awaited.
 * Its console lines reach the trace in the order they were written, also when main fails. A failure of the user's
 * code fails the node with its own code (CODE_ERROR with the message and line, CODE_SYNTAX_ERROR,
 * CODE_NO_MAIN); `{{` inside the code is JavaScript, not a template. The node type is in the palette with its code
 * field long enough to be a multi-line editor and an example main as its default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCpuPools } from '@/engine/cpu/pool';
import { validateGraph } from '@/engine/graph/validate';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { createHarness, type Harness } from '@/test/support/harness';
import { codeGraph, runCode } from '@/test/nodes/code-node-support';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('pglite');
});
afterAll(async () => {
  await h?.close();
  await closeCpuPools();
});

describe('the Code node', () => {
  it("runs main on the resolved inputs; its JSON is the node's output and the run's", async () => {
    const code = `
function main(input) {
  console.log('hello', input.name);
  console.info({ count: input.items.length });
  console.warn('careful');
  console.error(new Error('not thrown'));
  const total = input.items.reduce((sum, x) => sum + x.price, 0);
  return { greeting: 'Hi ' + input.name, total, first: input.items[0].title, flag: input.flag };
}`;
    const items = [
      { title: 'a', price: 2.5 },
      { title: 'b', price: 4 },
    ];
    const r = await runCode(
      h,
      { code, inputs: { name: '{{inputs.name}}', items: '{{inputs.items}}', flag: true } },
      { name: 'Ada', items },
    );
    expect(r.run.status).toBe('succeeded');
    const output = { greeting: 'Hi Ada', total: 6.5, first: 'a', flag: true };
    expect(r.node.output).toEqual(output);
    expect(r.run.outputs).toEqual({ result: output });
    expect(r.console).toEqual([
      { level: 'log', text: 'hello Ada' },
      { level: 'info', text: '{"count":2}' },
      { level: 'warn', text: 'careful' },
      { level: 'error', text: 'Error: not thrown' },
    ]);
    // The console event comes before the node's end, on the node's span.
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('node.progress')).toBeLessThan(types.indexOf('node.succeeded'));
  });

  it('awaits an async main (and the promises it waits on)', async () => {
    const code = `
async function main(input) {
  const double = async (x) => { await null; return x * 2; };
  const values = await Promise.all(input.values.map(double));
  return { values, sum: values.reduce((a, b) => a + b, 0) };
}`;
    const r = await runCode(h, { code, inputs: { values: '{{inputs.values}}' } }, { values: [1, 2, 3] });
    expect(r.run.status).toBe('succeeded');
    expect(r.node.output).toEqual({ values: [2, 4, 6], sum: 12 });
  });

  it('takes `{{` in the code as JavaScript: the workflow validates and the text comes out as written', async () => {
    const code = 'function main() { return { text: "Dear {{name}}, {{ not a ref }}" }; }';
    const registry = createDefaultRegistry();
    expect(validateGraph(codeGraph({ code }), registry).errors).toEqual([]);
    const r = await runCode(h, { code });
    expect(r.run.status).toBe('succeeded');
    expect(r.node.output).toEqual({ text: 'Dear {{name}}, {{ not a ref }}' });
  });

  it("fails with CODE_ERROR, the user's message and line, and keeps the console lines written before", async () => {
    const code = 'function main(input) {\n  console.log("before");\n  throw new TypeError("bad input: " + input.n);\n}';
    const r = await runCode(h, { code, inputs: { n: 7 } });
    expect(r.run.status).toBe('failed');
    expect(r.node.status).toBe('failed');
    expect(r.node.error).toMatchObject({
      code: 'CODE_ERROR',
      message: 'TypeError: bad input: 7 (line 3)',
      path: 'config.code',
      details: { line: 3 },
    });
    expect(r.console).toEqual([{ level: 'log', text: 'before' }]);
  });

  it('reports a syntax error with CODE_SYNTAX_ERROR and its line, a missing main with CODE_NO_MAIN', async () => {
    const syntax = await runCode(h, { code: 'function main(input) {\n  return { a: 1 ;\n}' });
    expect(syntax.node.error).toMatchObject({ code: 'CODE_SYNTAX_ERROR', details: { line: 2 } });
    expect(syntax.node.error?.message).toMatch(/^SyntaxError: .+ \(line 2\)$/);

    const none = await runCode(h, { code: 'const answer = 42;' });
    expect(none.node.error).toMatchObject({ code: 'CODE_NO_MAIN', path: 'config.code' });
    // main defined with const (not on the global object) counts.
    const arrow = await runCode(h, { code: 'const main = (input) => ({ ok: true });' });
    expect(arrow.node.output).toEqual({ ok: true });
  });

  it('is in the palette: a multi-line code field whose default is an example main that runs', async () => {
    const type = createDefaultRegistry()
      .describe()
      .find((d) => d.type === 'code')!;
    expect(type).toMatchObject({ label: 'Code', version: 1, sideEffects: false });
    const props = (type.configSchema as any).properties;
    // schema-form.tsx renders a string with maxLength >= 10,000 as a monospace text area.
    expect(props.code.maxLength).toBeGreaterThanOrEqual(10_000);
    expect(props.code.default).toMatch(/function main\(input\)/);
    expect(props).toHaveProperty('timeoutMs.default', 1000);
    expect(props).toHaveProperty('memoryMb.default', 64);

    const r = await runCode(h, { code: props.code.default, inputs: props.inputs.default });
    expect(r.run.status).toBe('succeeded');
    expect(r.node.output).toEqual({ words: 5, upper: 'HELLO FROM THE CODE NODE' });
    expect(r.console).toEqual([{ level: 'log', text: 'words: 5' }]);
  });
});
