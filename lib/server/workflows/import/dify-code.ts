/**
 * Dify's code node. JavaScript runs as it is (Dify's `main({ arg })` and PaiFlow's `main(input)` get the same
 * object); Python 3 runs in PaiFlow's Python Code node (`language: "python"`, Dify's `def main(arg: str) -> dict`
 * with the inputs as keyword arguments) with its declared outputs, once the Code node has that option. Until then,
 * and where the code imports a package outside Python's standard library (Dify's sandbox has a few), it is reported.
 */
import { codeConfigSchema } from '@/engine/nodes/code';
import type { DifyContext, DifyNode } from './dify-context';
import { refTo, type Converted } from './dify-nodes';
import { identifier } from './refs';
import { t } from './report';
import { dict, dicts, str } from './values';

/** Whether PaiFlow's Code node runs Python (its `language` option). */
const RUNS_PYTHON = 'language' in codeConfigSchema.shape;

const OUTPUT_TYPES = new Set([
  'string',
  'number',
  'boolean',
  'object',
  'array[string]',
  'array[number]',
  'array[boolean]',
  'array[object]',
]);

/** Python's standard library modules code in the corpus imports (and their common neighbours). */
const STDLIB = new Set(
  (
    'json re math datetime time random string collections itertools functools typing base64 hashlib hmac urllib ' +
    'html textwrap uuid decimal fractions statistics copy csv io struct unicodedata operator enum dataclasses ' +
    'zoneinfo calendar difflib bisect heapq pprint ast binascii codecs locale numbers secrets shlex xml gzip zlib ' +
    'zipfile abc array contextlib types warnings traceback inspect keyword sys os pathlib fnmatch glob logging ' +
    'urllib3 email mimetypes quopri'
  ).split(' '),
);

/** Top-level modules `source` imports that are not in Python's standard library. */
export function nonStandardImports(source: string): string[] {
  const mods = [
    ...source.matchAll(
      /^\s*(?:from\s+([A-Za-z_]\w*)[\w.]*\s+import|import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))/gm,
    ),
  ]
    .flatMap((m) => (m[1] ? [m[1]] : m[2].split(',').map((x) => x.trim().split('.')[0])))
    .filter(Boolean);
  return [...new Set(mods)].filter((m) => !STDLIB.has(m));
}

export function code(n: DifyNode, c: DifyContext): Converted {
  const inputs: Record<string, string> = {};
  for (const v of dicts(n.data.variables)) inputs[identifier(str(v.variable), 'arg')] = refTo(c, v.value_selector);
  const source = str(n.data.code);
  const declared = Object.fromEntries(
    Object.entries(dict(n.data.outputs))
      .map(([name, o]) => [identifier(name, 'result'), str(dict(o).type)])
      .filter(([, type]) => OUTPUT_TYPES.has(type)),
  );
  const javascript = str(n.data.code_language) === 'javascript';
  if (javascript || RUNS_PYTHON) {
    const language = javascript ? 'javascript' : 'python';
    c.add(n, 'code', {
      ...(RUNS_PYTHON ? { language, ...(Object.keys(declared).length ? { outputs: declared } : {}) } : {}),
      code: source || (javascript ? 'function main() { return {}; }' : 'def main() -> dict:\n    return {}\n'),
      inputs,
    });
    const missing = javascript ? [] : nonStandardImports(source);
    if (missing.length)
      return {
        outcome: 'approximated',
        why: [
          t(
            `A Python Code node with the same code; it imports ${missing.join(', ')}, which PaiFlow's Python ` +
              '(the standard library only, offline) does not have: rewrite those parts.',
            `Python 代码节点，代码相同；它导入了 ${missing.join('、')}，而 PaiFlow 的 Python（仅标准库，离线）没有这些模块：` +
              '请改写这些部分。',
          ),
        ],
      };
    return {
      outcome: 'mapped',
      why: [
        javascript
          ? t(
              'A Code node with the same JavaScript (main receives the same inputs).',
              '代码节点，JavaScript 代码相同。',
            )
          : t(
              "A Python Code node with the same code: main gets the same inputs as keyword arguments, and Dify's " +
                'declared outputs are checked on its result.',
              'Python 代码节点，代码相同：main 以关键字参数获得相同的输入，并按 Dify 声明的输出检查结果。',
            ),
      ],
    };
  }
  const comment = source.replace(/\*\//g, '* /');
  const stub =
    `// Imported from Dify: this code is Python, and PaiFlow's Code node runs JavaScript. Rewrite it as\n` +
    `// function main(input) returning { ${Object.keys(dict(n.data.outputs)).join(', ')} }; input holds: ` +
    `${Object.keys(inputs).join(', ')}.\n` +
    `/* The Python code from Dify:\n${comment}\n*/\n` +
    'function main(input) {\n' +
    "  throw new Error('This node still holds Python code from Dify: rewrite it in JavaScript');\n" +
    '}\n';
  c.add(n, 'code', { code: stub, inputs });
  return {
    outcome: 'approximated',
    why: [
      t(
        "A Code node that fails until rewritten: Dify's code is Python and PaiFlow runs JavaScript. The Python " +
          'code is kept in a comment in the node, with the same inputs.',
        '代码节点（改写前运行会失败）：Dify 的代码是 Python，而 PaiFlow 运行 JavaScript。原 Python 代码保留在节点的' +
          '注释中，输入变量相同。',
      ),
    ],
  };
}
