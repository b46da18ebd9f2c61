/**
 * Guarantee: a Code node's JavaScript cannot reach the host, and each way of abusing it ends as that node's own
 * failure with its own code, through real workflow runs. Host globals (`process`, `require`, `fetch`, timers,
 * `Buffer`) do not exist; `import()` of any module rejects and a static import does not compile; the Function
 * constructor's way out (`constructor.constructor('return process')()`) only reaches the sandbox's own global;
 * prototype changes do not leak into the host's objects, the node's output or the next execution; an infinite loop
 * is CODE_TIMEOUT, allocation bombs (typed arrays, strings, objects) are CODE_MEMORY_LIMIT, deep recursion is
 * CODE_STACK_OVERFLOW, a huge result is CODE_OUTPUT_TOO_LARGE, a result that is not JSON is CODE_INVALID_OUTPUT, a
 * console flood is capped. After all of it, an ordinary Code node still runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_MAX_LOG_CHARS, CODE_MAX_LOG_LINE_CHARS, CODE_MAX_LOG_LINES } from '@/engine/code/limits';
import { closeCpuPools } from '@/engine/cpu/pool';
import { createHarness, type Harness } from '../support/harness';
import { runCode } from '../nodes/code-node-support';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('pglite');
});
afterAll(async () => {
  await h?.close();
  await closeCpuPools();
});

const HOST_NAMES = [
  'process',
  'require',
  'module',
  'exports',
  'Buffer',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'queueMicrotask',
  'global',
  'std',
  'os',
  'Deno',
  'Bun',
];

/**
 * The node's config: a time limit far above what these few lines need, so that only the limit a case is about can
 * end it (the limit is wall-clock time in the sandbox, and a loaded machine stretches it).
 */
const SPACIOUS = { timeoutMs: 15_000 };

/** The node's output, after checking that the run succeeded. */
async function outputOf(code: string, config: Record<string, unknown> = {}) {
  const r = await runCode(h, { code, ...SPACIOUS, ...config });
  expect(r.node.error, JSON.stringify(r.node.error)).toBeNull();
  expect(r.run.status).toBe('succeeded');
  return r.node.output;
}

async function errorOf(code: string, config: Record<string, unknown> = {}) {
  const r = await runCode(h, { code, ...SPACIOUS, ...config });
  expect(r.run.status).toBe('failed');
  expect(r.node.status).toBe('failed');
  return r.node.error!;
}

describe('a Code node trying to reach the host', () => {
  it('finds none of the host globals, by name or on the global object', async () => {
    const out = (await outputOf(`
function main() {
  const names = ${JSON.stringify(HOST_NAMES)};
  const own = Object.getOwnPropertyNames(globalThis);
  return {
    typeofs: names.map((n) => typeof globalThis[n]),
    own: names.filter((n) => own.includes(n)),
    fetch: typeof globalThis.fetch,
  };
}`)) as { typeofs: string[]; own: string[]; fetch: string };
    expect(out.typeofs).toEqual(HOST_NAMES.map(() => 'undefined'));
    expect(out.own).toEqual([]);
    expect(out.fetch).toBe('undefined');
  });

  it('cannot import anything, dynamically or statically', async () => {
    const out = await outputOf(`
async function main() {
  const tried = {};
  for (const m of ['fs', 'node:fs', 'child_process', 'http', './main.js', 'https://example.com/x.js']) {
    try { await import(m); tried[m] = 'loaded'; } catch (e) { tried[m] = String(e); }
  }
  return tried;
}`);
    for (const v of Object.values(out as Record<string, string>)) expect(v).toMatch(/^ReferenceError: could not load/);

    const err = await errorOf('import fs from "fs";\nfunction main() { return fs.readFileSync("/etc/passwd") }');
    expect(err.code).toBe('CODE_SYNTAX_ERROR');
  });

  it('reaches only the sandbox through the Function constructor', async () => {
    const err = await errorOf('function main() { return (() => {}).constructor.constructor("return process")(); }');
    expect(err).toMatchObject({ code: 'CODE_ERROR' });
    expect(err.message).toMatch(/ReferenceError: 'process' is not defined/);

    const out = (await outputOf(`
function main() {
  const g = this.constructor.constructor('return this')();
  const viaEval = eval('typeof process + " " + typeof require');
  return { same: g === globalThis, viaEval };
}`)) as { same: boolean; viaEval: string };
    expect(out).toEqual({ same: true, viaEval: 'undefined undefined' });
  });

  it("changes no host prototype, and leaves nothing to the next execution's", async () => {
    const polluted = await outputOf(`
function main() {
  Object.prototype.polluted = 'yes';
  Array.prototype.push = function () { return 'hijacked'; };
  JSON.stringify = () => '"forged"';
  globalThis.leftover = 'still here';
  return JSON.parse('{"__proto__": {"polluted": "yes"}, "plain": 1}');
}`);
    // The "__proto__" key comes out as an ordinary own key of a plain object; no prototype of ours changed.
    expect(Object.getPrototypeOf(polluted)).toBe(Object.prototype);
    expect((polluted as Record<string, unknown>).plain).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((polluted as Record<string, unknown>).polluted).toBeUndefined();
    expect([0].push(1)).toBe(2);

    const next = await outputOf(`
function main() {
  const a = [];
  a.push(1);
  return { polluted: ({}).polluted ?? null, pushed: a.length, json: JSON.stringify({ x: 1 }),
           leftover: typeof leftover };
}`);
    expect(next).toEqual({ polluted: null, pushed: 1, json: '{"x":1}', leftover: 'undefined' });
  });
});

describe('a Code node abusing its limits', () => {
  it('ends an infinite loop with CODE_TIMEOUT, also one that catches everything or awaits forever', async () => {
    for (const code of [
      'function main() { while (true) {} }',
      'function main() { for (;;) { try { while (true) {} } catch (e) {} } }',
      'async function main() { while (true) await null; }',
    ]) {
      const err = await errorOf(code, { timeoutMs: 200 });
      expect(err, code).toMatchObject({ code: 'CODE_TIMEOUT', path: 'config.timeoutMs' });
      expect(err.message).toMatch(/within 200 ms/);
    }
  });

  it('ends allocation bombs with CODE_MEMORY_LIMIT', async () => {
    for (const code of [
      // Each block is far below the limit; together they pass it (QuickJS alone would not see it, see sandbox.ts).
      'function main() { const keep = []; while (true) keep.push(new Uint8Array(1 << 20)); }',
      'function main() { const keep = []; for (let i = 0; ; i++) keep.push(("x" + i).repeat(100000)); }',
      'function main() { const keep = []; while (true) keep.push({ a: 1, b: [1, 2, 3] }); }',
      'function main() { return "x".repeat(2 ** 29).length; }',
      'function main() { return new Array(1e8).fill(0).length; }',
    ]) {
      const err = await errorOf(code, { memoryMb: 16, timeoutMs: 20_000 });
      expect(err, code).toMatchObject({ code: 'CODE_MEMORY_LIMIT', path: 'config.memoryMb' });
      expect(err.message).toMatch(/more than 16 MB/);
    }
  });

  it('ends deep recursion with CODE_STACK_OVERFLOW at its line', async () => {
    const err = await errorOf('function main() {\n  const down = (n) => down(n + 1) + 1;\n  return down(0);\n}');
    expect(err).toMatchObject({ code: 'CODE_STACK_OVERFLOW', details: { line: 2 } });
    expect(err.message).toMatch(/recursed too deeply/);
    // Recursion inside the engine's own code (a deeply nested JSON text) too.
    const parse = await errorOf('function main() { return JSON.parse("[".repeat(1e6)); }');
    expect(parse.code).toBe('CODE_STACK_OVERFLOW');
  });

  it('refuses a huge result with CODE_OUTPUT_TOO_LARGE and one that is not JSON with CODE_INVALID_OUTPUT', async () => {
    // Time enough to build and copy out 11 MB on a busy machine: the size, not the clock, must end it.
    const big = await errorOf('function main() { return { text: "x".repeat(11e6) }; }', { timeoutMs: 20_000 });
    expect(big.code).toBe('CODE_OUTPUT_TOO_LARGE');
    expect(big.message).toMatch(/the limit is 10000000/);
    for (const code of [
      'function main() {}',
      'function main() { return () => 1; }',
      'function main() { return 10n; }',
      'function main() { const o = {}; o.self = o; return o; }',
    ]) {
      const err = await errorOf(code);
      expect(err.code, code).toBe('CODE_INVALID_OUTPUT');
    }
  });

  it('keeps a bounded console: a flood is counted, not stored', async () => {
    const r = await runCode(h, {
      code: `function main() {
  console.log("y".repeat(1e6));
  for (let i = 0; i < 3000; i++) console.log("line " + i, "x".repeat(500));
  return 1;
}`,
      // The flood takes most of the default 1 s on a loaded 2-core machine (CI once timed out): the limit on the
      // console is what is tested here, not the time limit.
      timeoutMs: 10_000,
    });
    expect(r.run.status).toBe('succeeded');
    const progress = r.events.find((e) => e.type === 'node.progress')!;
    expect(r.console.length).toBeGreaterThan(10);
    expect(r.console.length).toBeLessThanOrEqual(CODE_MAX_LOG_LINES);
    // The first line is cut (to CODE_MAX_LOG_LINE_CHARS and an ellipsis), the next ones come in order.
    expect(r.console[0].text).toBe(`${'y'.repeat(CODE_MAX_LOG_LINE_CHARS)}…`);
    expect(r.console[1].text).toBe(`line 0 ${'x'.repeat(500)}`);
    expect(r.console[5].text.startsWith('line 4 ')).toBe(true);
    expect(JSON.stringify(progress.data).length).toBeLessThan(CODE_MAX_LOG_CHARS + 20_000);
    expect(progress.data.consoleDropped).toBe(3001 - r.console.length);
  });

  it('still runs an ordinary Code node afterwards', async () => {
    expect(
      await outputOf('function main(input) { return { sum: input.a + input.b }; }', { inputs: { a: 2, b: 3 } }),
    ).toEqual({ sum: 5 });
  });
});
