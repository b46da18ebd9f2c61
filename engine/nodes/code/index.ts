/**
 * The Code node: the user's JavaScript, `function main(input)` (or `async function main`), on the node's resolved
 * inputs; what main returns (JSON) is the node's output. It runs in a QuickJS/WebAssembly sandbox in a worker
 * thread (engine/code/sandbox.ts, the `code` CPU pool), never in our own JavaScript engine: no network, files,
 * process or host objects, a CPU-time and a memory limit per node, and a fresh sandbox for every execution.
 * With `language: "python"`, Python 3 (Pyodide, engine/code/python-sandbox.ts, the `python` pool) runs Dify's shape:
 * `def main(arg1: str, ...) -> dict` with the inputs as keyword arguments; print() lines are console lines.
 * `outputs` (Dify's declared outputs, name → type) are checked against main's result (declared-outputs.ts).
 *
 * `code` is not a template: it is neither resolved nor checked for refs (rawKeys, literalKeys), so `{{` in it is just
 * JavaScript. Its console lines go
 * into the trace, as one `node.progress` event `{ console: [{ level, text }] }` before the node ends (also when
 * it fails), where the run panel shows them under the node.
 */
import { z } from 'zod';
import { CODE_MAX_OUTPUT_CHARS, CODE_MAX_SOURCE_CHARS, CODE_MEMORY_MB, CODE_TIMEOUT_MS } from '../../code/limits';
import type { SandboxFailure } from '../../code/sandbox';
import { codeInWorker, pythonInWorker } from '../../cpu/tasks';
import { PaiError } from '../../errors';
import { defineNode } from '../../node-kit/define';
import { checkDeclaredOutputs, OUTPUT_TYPES } from './declared-outputs';

export const DEFAULT_CODE = `// input holds this node's inputs; what main returns (any JSON value) is the node's output.
// The sandbox has JSON, Math, Date and console.log — no network, files or timers.
function main(input) {
  const text = String(input.text ?? '');
  const words = text.split(/\\s+/).filter(Boolean);
  console.log('words:', words.length);
  return { words: words.length, upper: text.toUpperCase() };
}
`;

/** The example main for Python (the editor offers it when the language is switched to Python). */
export const DEFAULT_PYTHON_CODE = `# The inputs come as keyword arguments; the dict main returns is the node's output.
# Python 3 with its standard library — no network, files outside memory or packages.
def main(text: str = "") -> dict:
    words = text.split()
    print("words:", len(words))
    return {"words": len(words), "upper": text.upper()}
`;

/** The config field a failure is about, for the editor to mark (an error of the code itself: the code). */
const FIELD_OF: Partial<Record<SandboxFailure['code'], string>> = {
  CODE_SYNTAX_ERROR: 'config.code',
  CODE_NO_MAIN: 'config.code',
  CODE_ERROR: 'config.code',
  CODE_STACK_OVERFLOW: 'config.code',
  CODE_TIMEOUT: 'config.timeoutMs',
  CODE_MEMORY_LIMIT: 'config.memoryMb',
};

const RESERVED = ['__proto__', 'constructor', 'prototype'];
const MAX_INPUTS = 100;

export const codeConfigSchema = z.strictObject({
  language: z
    .enum(['javascript', 'python'])
    .default('javascript')
    .describe('javascript: function main(input); python: def main(**inputs) -> dict (Python 3, standard library)'),
  code: z
    .string()
    .min(1, 'the code is required')
    .max(CODE_MAX_SOURCE_CHARS)
    .default(DEFAULT_CODE)
    // The editor swaps the example for the chosen language's while the code is still an example (defaults-by.ts).
    .meta({ defaultsBy: { language: { javascript: DEFAULT_CODE, python: DEFAULT_PYTHON_CODE } } })
    .describe('The code defining main, run in a sandbox; main returns the output (JSON)'),
  inputs: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, 'input names are identifiers: letters, digits, _ and $')
        .refine((n) => !RESERVED.includes(n), '"__proto__", "constructor" and "prototype" are reserved'),
      z.unknown(),
    )
    .refine((o) => Object.keys(o).length <= MAX_INPUTS, `at most ${MAX_INPUTS} inputs`)
    .default({ text: 'Hello from the Code node' })
    .describe('input.<name> for main, as JSON: {"name": "{{n1.output.text}}", …}; values may hold {{refs}}'),
  outputs: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'output names are identifiers: letters, digits and _'),
      z.enum(OUTPUT_TYPES),
    )
    .optional()
    .describe("Declared outputs, name → type (string, number, boolean, object, array[…]): main's result is checked"),
  timeoutMs: z
    .number()
    .int()
    .min(CODE_TIMEOUT_MS.min)
    .max(CODE_TIMEOUT_MS.max)
    .default(CODE_TIMEOUT_MS.default)
    .describe('CPU time main may take, ms'),
  memoryMb: z
    .number()
    .int()
    .min(CODE_MEMORY_MB.min)
    .max(CODE_MEMORY_MB.max)
    .default(CODE_MEMORY_MB.default)
    .describe('Memory the sandbox may use, MB'),
});
export type CodeConfig = z.infer<typeof codeConfigSchema>;

export const codeNode = defineNode<CodeConfig>({
  type: 'code',
  version: 1,
  label: 'Code',
  category: 'data',
  description:
    'Runs JavaScript (function main(input)) or Python (def main(...)) in a sandbox; its result is the output.',
  configSchema: codeConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  // Its output is whatever main(input) returns: no fixed fields.
  outputFields: [],
  rawKeys: ['code'],
  literalKeys: ['code'],
  async execute(ctx) {
    const { inputs, timeoutMs, memoryMb, language, outputs } = ctx.config;
    const python = language === 'python';
    // A Python node left with the JavaScript example runs the Python one.
    const code = python && ctx.rawConfig.code === DEFAULT_CODE ? DEFAULT_PYTHON_CODE : ctx.rawConfig.code;
    // Python's main takes its inputs as arguments: each declared one is passed, as None when its reference found no
    // value (an optional start input left out), as Dify does, never left out as a missing argument.
    const given = python
      ? Object.fromEntries(Object.entries(inputs ?? {}).map(([name, v]) => [name, v === undefined ? null : v]))
      : (inputs ?? {});
    const task = {
      code,
      inputJson: JSON.stringify(given),
      timeoutMs,
      memoryMb,
      maxOutputChars: CODE_MAX_OUTPUT_CHARS,
    };
    const outcome = await (python ? pythonInWorker : codeInWorker)(task, { signal: ctx.signal });
    if (outcome.logs.length || outcome.droppedLogs)
      ctx.emit('node.progress', {
        console: outcome.logs,
        ...(outcome.droppedLogs ? { consoleDropped: outcome.droppedLogs } : {}),
      });
    if (!outcome.ok) {
      const { code, message, line, column } = outcome.error;
      throw new PaiError(code, message, {
        path: FIELD_OF[code],
        details: line ? { line, ...(column ? { column } : {}) } : undefined,
      });
    }
    checkDeclaredOutputs(outcome.value, outputs);
    return { output: outcome.value };
  },
});
