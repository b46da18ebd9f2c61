// A thread of the CPU pools (pool.ts). Plain JavaScript, loaded by path from every runtime (Next's server, tsx,
// vitest); the TypeScript modules a task needs are loaded on first use with tsx's CommonJS require (tsx's tsImport
// cannot load a module that import()s a package, as the PDF parser and the embedding model do). Each export is one
// task: it first says on `started` that it runs (the main thread's time limit counts from then), and answers
// `{ value }` or `{ error: { code, message } }`.
import { setPriority } from 'node:os';
import { RE2JS } from 're2js';

// Below the event loop: with as many busy threads as cores, the main thread (HTTP, runs) still gets its turn. On
// Linux a priority set with pid 0 is the calling thread's only.
try {
  setPriority(10);
} catch {
  // not permitted here: run at the normal priority
}

let tsRequire;
async function load(spec) {
  tsRequire ??= (await import('tsx/cjs/api')).require;
  return tsRequire(spec, import.meta.url);
}

function begin(port) {
  port?.postMessage('started');
  port?.close();
}

function failure(e) {
  const known = e && typeof e.code === 'string' && e.name === 'PaiError';
  return {
    error: {
      code: known ? e.code : 'WORKER_ERROR',
      message: String(e?.message ?? e),
      // Where in the input (a JSON path, a line): plain data, copied so that nothing uncloneable crosses.
      ...(known && e.path !== undefined ? { path: e.path } : {}),
      ...(known && e.details !== undefined ? { details: JSON.parse(JSON.stringify(e.details)) } : {}),
    },
  };
}

/** Does nothing: a run of it makes the pool start a thread (pool.ts revive). */
export function ping() {
  return { value: true };
}

const regexes = new Map();

/** `{ pattern, input }` → whether RE2 finds the pattern (already checked against the limits by the caller). */
export function regex({ pattern, input, started }) {
  begin(started);
  let re = regexes.get(pattern);
  if (!re) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      return { error: { code: 'INVALID_REGEX', message: `invalid regular expression: ${e.message}` } };
    }
    if (regexes.size > 200) regexes.clear();
    regexes.set(pattern, re);
  }
  return { value: re.matcher(input).find() };
}

let schemaValidators;
/**
 * An evaluation output against a JSON Schema (engine/evaluation/json-schema-scorer.ts), by @cfworker/json-schema: an
 * interpreter, no code generation. Answers `{ valid }`, or the deepest error's place and message.
 */
export async function jsonSchema({ schema, draft, instance, started }) {
  // The validator is loaded before the task says it started: a thread's first score does not spend its time on it.
  let Validator;
  try {
    ({ Validator } = await import('@cfworker/json-schema'));
  } finally {
    begin(started);
  }
  try {
    schemaValidators ??= new Map();
    const key = `${draft}:${JSON.stringify(schema)}`;
    let validator = schemaValidators.get(key);
    if (!validator) {
      if (schemaValidators.size > 200) schemaValidators.clear();
      validator = new Validator(schema, draft, true);
      schemaValidators.set(key, validator);
    }
    const result = validator.validate(instance);
    if (result.valid) return { value: { valid: true } };
    const deepest = [...result.errors].sort((a, b) => b.instanceLocation.length - a.instanceLocation.length)[0];
    return {
      value: {
        valid: false,
        at: deepest ? deepest.instanceLocation.replace(/^#/, '') || '/' : '/',
        message: deepest?.error,
      },
    };
  } catch (e) {
    return failure(e);
  }
}

/** A document's bytes or text → its text and chunk offsets (engine/knowledge/prepare-document.ts). */
export async function document({ started, ...input }) {
  begin(started);
  try {
    const { prepareDocument } = await load('../knowledge/prepare-document.ts');
    return { value: await prepareDocument(input) };
  } catch (e) {
    return failure(e);
  }
}

/**
 * A user's document read on the request path (engine/uploads/): the module is loaded before the task says it
 * started, so that a thread's first upload does not spend its time budget on loading the parser.
 */
async function upload(started, module, read) {
  try {
    const loaded = await load(module);
    begin(started);
    return { value: await read(loaded) };
  } catch (e) {
    begin(started);
    return failure(e);
  }
}

/** `{ body, contentType, limits }` → a dataset upload's fields and rows (engine/uploads/dataset-upload.ts). */
export function datasetUpload({ started, body, contentType, limits }) {
  return upload(started, '../uploads/dataset-upload.ts', (m) => m.readDatasetUpload(body, contentType, limits));
}

/** `{ source, limits }` → the plain value of a YAML document (engine/uploads/yaml-document.ts). */
export function yamlDocument({ started, source, limits }) {
  return upload(started, '../uploads/yaml-document.ts', (m) => m.readYaml(source, limits));
}

/** `{ body, contentType, limits }` → a multipart form's fields and files (engine/uploads/multipart-form.ts). */
export function multipartForm({ started, body, contentType, limits }) {
  return upload(started, '../uploads/multipart-form.ts', (m) => m.readMultipartForm(body, contentType, limits));
}

/** `{ texts }` → one vector per text from the offline model (engine/knowledge/embedders/use-lite-model.ts). */
export async function embed({ texts, started }) {
  begin(started);
  try {
    const { embedWithUseLite } = await load('../knowledge/embedders/use-lite-model.ts');
    return { value: await embedWithUseLite(texts) };
  } catch (e) {
    return failure(e);
  }
}

/**
 * `{ code, inputJson, timeoutMs, memoryMb, maxOutputChars }` → a Code node's outcome (engine/code/sandbox.ts). The
 * sandbox module is loaded before the task says it started, so that the first task of a thread does not spend its
 * time limit on loading; the sandbox keeps its own CPU deadline, the main thread's limit is the backstop.
 */
export async function code({ started, ...task }) {
  try {
    const { runSandboxed } = await load('../code/sandbox.ts');
    begin(started);
    return { value: await runSandboxed(task) };
  } catch (e) {
    begin(started);
    return failure(e);
  }
}

/**
 * `{ code, inputJson, timeoutMs, memoryMb, maxOutputChars }` → a Python Code node's outcome
 * (engine/code/python-sandbox.ts). The thread's interpreter starts before the task says it started (a cold start
 * takes seconds and is not the code's time); a thread the sandbox retires ends once it has answered (a task handed
 * to it meanwhile ends it at once, and pythonInWorker runs that task again).
 */
export async function python({ started, ...task }) {
  try {
    const sandbox = await load('../code/python-sandbox.ts');
    await sandbox.resetPython();
    if (sandbox.pythonThreadRetires()) process.exit(0); // a task that came before the exit below: run again
    await sandbox.pythonInterpreter();
    begin(started);
    const value = await sandbox.runPythonSandboxed(task);
    setImmediate(async () => {
      await sandbox.resetPython();
      if (sandbox.pythonThreadRetires()) setTimeout(() => process.exit(0), 50);
    });
    return { value };
  } catch (e) {
    begin(started);
    return failure(e);
  }
}

/** Starts the thread's Python interpreter (a warm thread for the next Python Code node). */
export async function pythonWarm({ started }) {
  begin(started);
  try {
    const sandbox = await load('../code/python-sandbox.ts');
    if (sandbox.pythonThreadRetires()) process.exit(0);
    await sandbox.pythonInterpreter();
    return { value: true };
  } catch (e) {
    return failure(e);
  }
}

/** `{ text, voice, wordsPerMinute }` → a WAV from the offline synthesizer (engine/media/espeak.ts). */
export async function speech({ started, text, voice, wordsPerMinute }) {
  try {
    const { espeakWav } = await load('../media/espeak.ts');
    begin(started);
    return { value: await espeakWav(text, { voice, wordsPerMinute }) };
  } catch (e) {
    begin(started);
    return failure(e);
  }
}
