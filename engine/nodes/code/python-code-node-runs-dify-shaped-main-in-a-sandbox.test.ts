/**
 * Guarantee: a Code node with `language: "python"` runs Dify's shape as it is — `def main(arg1: str, arg2: int) ->
 * dict` called with the node's resolved inputs as keyword arguments (None for one that resolved to nothing), its
 * returned dict the node's output, print()
 * lines its console lines — and declared outputs are checked (missing or mistyped: CODE_OUTPUT_MISMATCH). The
 * Python cannot get out: no network (urllib, sockets), no host files, no JavaScript bridge (`js`, `pyodide_js`,
 * `pyodide.http`, `run_js`, ctypes, `micropip`; no Function constructor or new prototype property through the bridge's
 * own module), and nothing of one execution is seen by the next (globals, module
 * attributes, builtins, environment, files). Its limits are the JavaScript node's: memory (CODE_MEMORY_LIMIT),
 * output size (CODE_OUTPUT_TOO_LARGE), recursion (CODE_STACK_OVERFLOW) and time (CODE_TIMEOUT, which replaces the
 * thread). One warm interpreter serves the file (the cheap ring: one cold start, then milliseconds per run); the
 * only other cold start is the one CODE_TIMEOUT's guarantee makes (the out-of-memory case, which retires its thread,
 * is last).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCpuPools } from '@/engine/cpu/pool';
import { createHarness, type Harness } from '@/test/support/harness';
import { codeGraph, finishedCode, runCode } from '@/test/nodes/code-node-support';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('pglite');
  // The one cold start of the file (seconds on a busy machine), outside the tests' own time.
  await runCode(h, { language: 'python', code: 'def main():\n    return {}\n', inputs: {}, ...ROOMY });
}, 180_000);
afterAll(async () => {
  await h?.close();
  await closeCpuPools();
});

/**
 * A time limit well past what these snippets take on a loaded machine, for every test not about time: a CODE_TIMEOUT
 * ends the thread, and the next test would pay for a second cold start (the default 1 s was hit under CI load).
 */
const ROOMY = { timeoutMs: 10_000 };

const py = (code: string, config: Record<string, unknown> = {}, inputs: Record<string, unknown> = {}) =>
  runCode(h, { language: 'python', code, inputs: {}, ...ROOMY, ...config }, inputs);

async function outputOf(code: string, config: Record<string, unknown> = {}) {
  const r = await py(code, config);
  expect(r.node.error, JSON.stringify(r.node.error)).toBeNull();
  return r.node.output as Record<string, unknown>;
}

async function errorOf(code: string, config: Record<string, unknown> = {}) {
  const r = await py(code, config);
  expect(r.run.status).toBe('failed');
  return r.node.error!;
}

describe('a Python Code node', () => {
  it("calls Dify's main with the inputs as keyword arguments; its dict is the output, prints the console", async () => {
    const code = [
      'import json, re',
      'def main(arg1: str, arg2: int, items: list) -> dict:',
      '    print("hello", arg1)',
      '    return {"result": arg1 * arg2, "total": sum(i["n"] for i in items), "words": re.findall(r"\\w+", arg1),',
      '            "nested": json.loads(\'{"a": [1, 2]}\'), "none": None, "pair": (1, 2)}',
    ].join('\n');
    const r = await py(
      code,
      { inputs: { arg1: '{{inputs.name}}', arg2: 2, items: '{{inputs.items}}' } },
      { name: 'ab', items: [{ n: 1 }, { n: 2.5 }] },
    );
    expect(r.run.status).toBe('succeeded');
    const output = { result: 'abab', total: 3.5, words: ['ab'], nested: { a: [1, 2] }, none: null, pair: [1, 2] };
    expect(r.node.output).toEqual(output);
    expect(r.run.outputs).toEqual({ result: output });
    expect(r.console).toEqual([{ level: 'log', text: 'hello ab' }]);
  });

  it('passes every declared input: one whose reference finds no value is None, as in Dify', async () => {
    const config = {
      language: 'python',
      code: 'def main(text: str, flag: str) -> dict:\n    return {"text": text, "flag": flag}\n',
      inputs: { text: '{{inputs.text}}', flag: '{{inputs.flag}}' },
      ...ROOMY,
    };
    // Both are optional start inputs; the run gives only `text`.
    const wf = (await h.store.getWorkflow(await h.createWorkflow(codeGraph(config, { text: '', flag: '' }))))!;
    const { run } = await h.runs.start({ workflow: wf, inputs: { text: 'hi' } });
    const r = await finishedCode(h, run.id);
    expect(r.node.error, JSON.stringify(r.node.error)).toBeNull();
    expect(r.node.output).toEqual({ text: 'hi', flag: null });
  });

  it('runs its default example when left with the JavaScript one', async () => {
    const r = await runCode(h, { language: 'python', inputs: { text: 'two words' }, ...ROOMY });
    expect(r.node.output).toEqual({ words: 2, upper: 'TWO WORDS' });
  });

  it('checks declared outputs: a missing or mistyped one is CODE_OUTPUT_MISMATCH', async () => {
    const code = 'def main() -> dict:\n    return {"a": "x", "n": 1, "list": [1, 2]}\n';
    expect(await outputOf(code, { outputs: { a: 'string', n: 'number', list: 'array[number]' } })).toEqual({
      a: 'x',
      n: 1,
      list: [1, 2],
    });
    expect(await errorOf(code, { outputs: { b: 'string' } })).toMatchObject({
      code: 'CODE_OUTPUT_MISMATCH',
      path: 'config.outputs.b',
    });
    const wrong = await errorOf(code, { outputs: { list: 'array[string]' } });
    expect(wrong).toMatchObject({ code: 'CODE_OUTPUT_MISMATCH', path: 'config.outputs.list' });
    expect(wrong.message).toMatch(/declared as array\[string\]/);
  });

  it('fails with the code, message and line of a Python error, a syntax error or a missing main', async () => {
    expect(await errorOf('def main():\n    raise ValueError("bad input")\n')).toMatchObject({
      code: 'CODE_ERROR',
      message: 'ValueError: bad input (line 2)',
      details: { line: 2 },
    });
    expect(await errorOf('def main(:\n    pass\n')).toMatchObject({ code: 'CODE_SYNTAX_ERROR', details: { line: 1 } });
    expect(await errorOf('x = 1\n')).toMatchObject({ code: 'CODE_NO_MAIN' });
    expect(await errorOf('def main():\n    return {"x": object()}\n')).toMatchObject({ code: 'CODE_INVALID_OUTPUT' });
  });
});

describe('a Python Code node trying to get out', () => {
  it('has no network: urllib and sockets fail', async () => {
    const out = await outputOf(
      `
import socket, urllib.request
def main():
    tried = {}
    try:
        urllib.request.urlopen("http://127.0.0.1:6379/", timeout=2).read()
        tried["urllib"] = "reached"
    except Exception as e:
        tried["urllib"] = str(e)
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=2)
        tried["socket"] = "connected"
    except Exception as e:
        tried["socket"] = str(e)
    return tried
`,
      { timeoutMs: 20_000 },
    ); // urllib.request is a large import
    expect(out.urllib).toMatch(/network access is disabled/);
    expect(out.socket).toMatch(/network access is disabled/);
  });

  it('sees no host file: /etc/passwd and the working directory do not exist', async () => {
    const out = await outputOf(`
import os
def main():
    try:
        open("/etc/passwd").read()
        passwd = "read"
    except OSError as e:
        passwd = type(e).__name__
    return {"passwd": passwd, "root": sorted(os.listdir("/")), "cwd": os.path.exists(${JSON.stringify(process.cwd())})}
`);
    expect(out).toEqual({ passwd: 'FileNotFoundError', root: ['dev', 'home', 'lib', 'proc', 'tmp'], cwd: false });
  });

  it('cannot reach JavaScript: js, pyodide_js, pyodide.http, run_js, ctypes and micropip are refused', async () => {
    for (const [stmt, name] of [
      ['import js\njs.process', 'js'],
      ['from js import fetch', 'js'],
      ['import pyodide_js\npyodide_js.mountNodeFS("/host", "/")', 'pyodide_js'],
      ['from pyodide.http import pyfetch', 'pyodide'],
      ['from pyodide.code import run_js\nrun_js("process")', 'pyodide'],
      ['import ctypes', 'ctypes'],
      ['import micropip', 'micropip'],
    ]) {
      const err = await errorOf(`${stmt}\ndef main():\n    return {}\n`);
      expect(err.code, stmt).toBe('CODE_ERROR');
      expect(err.message, stmt).toMatch(new RegExp(`^ImportError: ${name}(\\.\\w+)? is not available in the Python`));
    }
    const gc = await errorOf('import gc\ndef main():\n    return {"n": len(gc.get_objects())}\n');
    expect(gc.message).toMatch(/PermissionError: gc.get_objects is disabled/);
  });

  it("cannot plant a property on JavaScript's prototypes through the bridge's own module", async () => {
    const out = await outputOf(`
import _imp, importlib.machinery
def main():
    core = _imp.create_builtin(importlib.machinery.ModuleSpec("_pyodide_core", None))
    Obj = core.to_js({}).constructor
    try:
        Obj.defineProperty(Obj.prototype, "then", core.to_js({"value": 1}))
        planted = "yes"
    except Exception as e:
        planted = str(e)
    return {"planted": planted, "function": str(Obj.constructor)}
`);
    expect(out).toEqual({ planted: expect.stringMatching(/not extensible/), function: 'None' });
  });

  it('leaves nothing to the next execution: globals, modules, builtins, environment, files', async () => {
    const first = await outputOf(`
import builtins, json, os
LEFT = "here"
json.secret = 42
builtins.leaked = 7
os.environ["LEAK"] = "1"
open("/tmp/left.txt", "w").write("x")
def main():
    import asyncio
    try:  # a callback that would run after the reset
        asyncio.get_event_loop().call_later(0, lambda: setattr(builtins, "late", 1))
    except Exception as e:
        return {"later": type(e).__name__}
    return {"later": "scheduled"}
`);
    expect(first).toEqual({ later: 'PermissionError' });
    const out = await outputOf(`
import builtins, json, os
def main():
    return {"globals": "LEFT" in globals(), "module": hasattr(json, "secret"), "builtins": hasattr(builtins, "leaked"),
            "env": os.environ.get("LEAK"), "file": os.path.exists("/tmp/left.txt"), "late": hasattr(builtins, "late")}
`);
    expect(out).toEqual({ globals: false, module: false, builtins: false, env: null, file: false, late: false });
  });
});

describe('a Python Code node over its limits', () => {
  it('is CODE_OUTPUT_TOO_LARGE past the output limit and CODE_STACK_OVERFLOW when recursing forever', async () => {
    // A time limit well past what copying 10 MB takes on a busy machine: this is about the size limit.
    const big = 'def main():\n    return {"x": "a" * 10_000_001}\n';
    expect(await errorOf(big, { timeoutMs: 30_000 })).toMatchObject({
      code: 'CODE_OUTPUT_TOO_LARGE',
    });
    expect(await errorOf('def f(n):\n    return f(n + 1)\ndef main():\n    return f(0)\n')).toMatchObject({
      code: 'CODE_STACK_OVERFLOW',
    });
  });

  it('is CODE_TIMEOUT past timeoutMs; the next Python node runs on a fresh interpreter', async () => {
    const err = await errorOf('def main():\n    while True:\n        pass\n', { timeoutMs: 300 });
    expect(err).toMatchObject({ code: 'CODE_TIMEOUT', path: 'config.timeoutMs' });
    expect(await outputOf('def main(n: int = 2):\n    return {"n": n * 2}\n')).toEqual({ n: 4 });
  }, 180_000);

  // Last: an out-of-memory retires the thread, so anything after it would wait for another cold start.
  it('is CODE_MEMORY_LIMIT past memoryMb', async () => {
    const err = await errorOf('def main():\n    x = bytearray(100 * 1024 * 1024)\n    return {}\n', { memoryMb: 32 });
    expect(err).toMatchObject({ code: 'CODE_MEMORY_LIMIT', path: 'config.memoryMb' });
  });
});
