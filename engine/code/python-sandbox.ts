/**
 * Runs a Code node's Python (language "python") with Pyodide, CPython compiled to WebAssembly, in a thread of the
 * `python` pool (engine/cpu/worker.mjs → pool.ts); engine/cpu/tasks.ts pythonInWorker() is the way in. Dify's shape
 * works as it is: `def main(arg1: str, arg2: int) -> dict` is called with the node's inputs as keyword arguments, and
 * what it returns (as JSON) is the node's output; print() and stderr lines are the node's console lines.
 *
 * One interpreter per thread, started on the thread's first task (several seconds) and kept for the next ones (warm:
 * milliseconds); the pool ends idle threads. Between executions python-runner.ts `reset()` (resetPython) puts the
 * interpreter back as it was after start-up (modules, builtins, environment, files, working directory); each
 * execution's code runs in a fresh namespace. When it cannot (a file changed outside /tmp and the home directory,
 * memory grown far past the start), or after an out-of-memory, the thread ends itself after answering and the
 * next task gets a new one.
 *
 * Walls, from the outside in: the thread's JavaScript is locked down before any user code runs (no `eval` or
 * Function constructor, so nothing can turn text into JavaScript; no fetch/WebSocket; the modules that reach the
 * network or processes cannot be required; Pyodide's host-file mounts and package loader are removed); the `js`
 * module is an empty object; the Python audit hook (python-runner.ts) refuses sockets, processes, ctypes and the
 * bridge modules. The file system is Pyodide's in-memory one (the standard library lives there), nothing of the host.
 *
 * Limits: time — the pool ends the thread at `timeoutMs` (a fresh interpreter starts for the next task); memory —
 * the WebAssembly memory may not grow more than `memoryMb` past its size after start-up (Python gets MemoryError);
 * output and console as the JavaScript sandbox (limits.ts).
 */
import Module from 'node:module';
import { loadPyodide } from 'pyodide';
import { CODE_MAX_LOG_CHARS, CODE_MAX_LOG_LINE_CHARS, CODE_MAX_LOG_LINES } from './limits';
import { PYTHON_RUNNER } from './python-runner';
import type { ConsoleLine, SandboxFailure, SandboxOutcome, SandboxTask } from './sandbox';

const MB = 1024 * 1024;
/** A thread whose memory grew this far past its start-up size ends after the execution (idle memory stays low). */
const RECYCLE_GROWTH_MB = 96;

/** Node modules a thread running Python never needs after start-up (network, processes, other threads). */
const DENIED_MODULES = new Set(
  'ws net tls http https http2 dgram dns child_process cluster worker_threads inspector vm undici'.split(' '),
);

interface PyProxyFn {
  (...args: unknown[]): unknown;
  destroy?: () => void;
}
/* eslint-disable @typescript-eslint/no-explicit-any -- Pyodide's own objects, reached by name (see lockDown) */
interface PyodideLike {
  runPython(code: string, opts?: { globals?: unknown }): any;
  setStdout(o: { batched: (line: string) => void }): void;
  setStderr(o: { batched: (line: string) => void }): void;
  unregisterJsModule(name: string): void;
  registerJsModule(name: string, module: object): void;
  FS: any;
  _module: any;
  [k: string]: any;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

interface Interpreter {
  py: PyodideLike;
  compileUser: PyProxyFn;
  callMain: PyProxyFn;
  reset: PyProxyFn;
  /** Bytes of WebAssembly memory after start-up. */
  startBytes: number;
}

/** Per-execution state the thread-wide hooks (stdout, memory growth) write into. */
const current: { sink?: LineSink; maxBytes: number; memoryFull: boolean } = { maxBytes: Infinity, memoryFull: false };

/** Set when this thread should end after answering (see the top of this file). */
let retire = false;

class LineSink {
  readonly lines: ConsoleLine[] = [];
  dropped = 0;
  private chars = 0;

  add(level: ConsoleLine['level'], text: string) {
    if (this.lines.length >= CODE_MAX_LOG_LINES || this.chars >= CODE_MAX_LOG_CHARS) {
      this.dropped++;
      return;
    }
    const line = text.length > CODE_MAX_LOG_LINE_CHARS ? text.slice(0, CODE_MAX_LOG_LINE_CHARS) + '\u2026' : text;
    this.chars += line.length;
    this.lines.push({ level, text: line });
  }
}

let interpreter: Promise<Interpreter> | undefined;

/** The thread's interpreter, started on first use. */
export function pythonInterpreter(): Promise<Interpreter> {
  interpreter ??= start().catch((e) => {
    interpreter = undefined;
    throw e;
  });
  return interpreter;
}

async function start(): Promise<Interpreter> {
  limitMemoryGrowth();
  const py = (await loadPyodide({
    jsglobals: Object.create(null),
    packages: [],
    env: { HOME: '/home/pyodide' },
  } as never)) as unknown as PyodideLike;
  py.setStdout({ batched: (line) => current.sink?.add('log', line) });
  py.setStderr({ batched: (line) => current.sink?.add('error', line) });
  const ns = py.runPython('dict()');
  py.runPython(PYTHON_RUNNER, { globals: ns });
  const fn = (name: string) => ns.get(name) as PyProxyFn;
  const interp: Interpreter = {
    py,
    compileUser: fn('compile_user'),
    callMain: fn('call_main'),
    reset: fn('reset'),
    startBytes: 0,
  };
  lockDown(py);
  fn('baseline')();
  interp.startBytes = py._module.HEAP8.buffer.byteLength;
  return interp;
}

/**
 * Makes growing a WebAssembly memory past `current.maxBytes` fail (Emscripten's malloc then returns NULL and Python
 * raises MemoryError). Only Pyodide's memory grows in this thread.
 */
function limitMemoryGrowth() {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, delta: number) {
    if (this.buffer.byteLength + delta * 65536 > current.maxBytes) {
      current.memoryFull = true;
      throw new RangeError('the Python sandbox memory limit (memoryMb) is reached');
    }
    return grow.call(this, delta);
  };
}

/** The thread's JavaScript after start-up: see the top of this file. Nothing here is needed again by Pyodide. */
function lockDown(py: PyodideLike) {
  const refuse = (what: string) => () => {
    throw new Error(`${what} is disabled in the Python sandbox`);
  };
  py.unregisterJsModule('pyodide_js');
  py.unregisterJsModule('js');
  py.registerJsModule('js', Object.create(null));
  for (const k of ['mountNodeFS', 'mountNativeFS', 'loadPackage', 'loadPackagesFromImports', 'loadScript'])
    if (k in py) py[k] = refuse(k);
  for (const fs of [py.FS, py._module?.FS])
    if (fs?.filesystems) for (const k of Object.keys(fs.filesystems)) if (k !== 'MEMFS') delete fs.filesystems[k];
  for (const k of ['NODEFS', 'NODERAWFS', 'PROXYFS', 'WORKERFS', 'IDBFS'])
    if (py._module && k in py._module) delete py._module[k];
  const g = globalThis as Record<string, unknown>;
  for (const k of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource', 'Request', 'Response', 'Headers'])
    delete g[k];
  g.eval = refuse('eval');
  for (const f of [function () {}, async function () {}, function* () {}, async function* () {}])
    Object.defineProperty(Object.getPrototypeOf(f), 'constructor', {
      value: undefined,
      writable: false,
      configurable: false,
    });
  // The built-in prototypes Python can reach through any JavaScript object (`to_js({}).constructor`) take no new
  // properties, so no run can plant a getter (`then`, a setter on a key) that sees a later run's values. Not frozen:
  // Pyodide assigns properties that the prototypes also have (a frozen one would make those assignments fail).
  for (const o of [Object.prototype, Array.prototype, Function.prototype, Promise.prototype, Map.prototype])
    Object.preventExtensions(o);
  intrinsics = snapshotIntrinsics();
  const proc = process as unknown as Record<string, unknown>;
  for (const k of ['binding', '_linkedBinding', 'dlopen', 'kill', 'chdir']) proc[k] = refuse(`process.${k}`);
  const m = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = m._load;
  m._load = function (request: string, ...rest: unknown[]) {
    if (DENIED_MODULES.has(request.replace(/^node:/, '').split('/')[0]))
      throw new Error(`${request} is not available in the Python sandbox (no network or processes)`);
    return load.call(this, request, ...rest);
  };
}

interface GuestError {
  kind: 'syntax' | 'memory' | 'recursion' | 'error';
  name: string;
  message: string;
  line?: number | null;
  column?: number | null;
}

/** Runs `task.code`'s main(**inputs) in this thread's interpreter, reset afterwards. Never throws. */
export async function runPythonSandboxed(task: SandboxTask): Promise<SandboxOutcome> {
  const sink = new LineSink();
  const done = (r: { ok: true; value: unknown } | { ok: false; error: SandboxFailure }): SandboxOutcome => ({
    ...r,
    logs: sink.lines,
    droppedLogs: sink.dropped,
  });
  let interp: Interpreter;
  try {
    interp = await pythonInterpreter();
  } catch (e) {
    return done({
      ok: false,
      error: { code: 'CODE_ERROR', message: `Python failed to start: ${(e as Error).message}` },
    });
  }
  current.sink = sink;
  current.memoryFull = false;
  current.maxBytes = interp.startBytes + task.memoryMb * MB;
  try {
    return done(execute(interp, task));
  } catch (e) {
    // Pyodide itself failed (a fatal error): this interpreter is not used again.
    retire = true;
    if (current.memoryFull) return done({ ok: false, error: memoryLimit(task) });
    return done({
      ok: false,
      error: { code: 'CODE_ERROR', message: `the Python sandbox failed: ${(e as Error).message}` },
    });
  } finally {
    current.sink = undefined;
    current.maxBytes = Infinity;
    dirty = true;
    if (current.memoryFull || interp.py._module.HEAP8.buffer.byteLength > interp.startBytes + RECYCLE_GROWTH_MB * MB)
      retire = true;
  }
}

/** An execution ran since the last reset. */
let dirty = false;

/**
 * Puts the interpreter back as it was after start-up (python-runner.ts reset()), if an execution ran since: right
 * after answering, and before the next task starts its time (so the reset never counts against a node's timeoutMs).
 * A reset that fails or finds what it cannot undo retires the thread.
 */
export async function resetPython(): Promise<void> {
  if (!dirty || retire || !interpreter) return;
  dirty = false;
  try {
    if (!(await interpreter).reset()) retire = true;
  } catch {
    retire = true;
  }
  // A method of a built-in replaced through the bridge cannot be trusted back: the thread goes.
  if (intrinsics && !sameIntrinsics(intrinsics)) retire = true;
}

/** The built-ins whose own properties a run must leave as they were (checked after each run). */
const WATCHED = () => [
  Object.prototype,
  Array.prototype,
  Function.prototype,
  Promise.prototype,
  Map.prototype,
  Set.prototype,
  String.prototype,
  Number.prototype,
  Object,
  Array,
  JSON,
  Promise,
];

let intrinsics: Map<object, Map<string | symbol, unknown>> | undefined;

function snapshotIntrinsics(): Map<object, Map<string | symbol, unknown>> {
  const out = new Map<object, Map<string | symbol, unknown>>();
  for (const o of WATCHED()) {
    const props = new Map<string | symbol, unknown>();
    for (const k of Reflect.ownKeys(o)) {
      const d = Reflect.getOwnPropertyDescriptor(o, k)!;
      props.set(k, 'value' in d ? d.value : d.get);
    }
    out.set(o, props);
  }
  return out;
}

function sameIntrinsics(saved: Map<object, Map<string | symbol, unknown>>): boolean {
  const now = snapshotIntrinsics();
  for (const [o, props] of saved) {
    const current = now.get(o)!;
    if (current.size !== props.size) return false;
    for (const [k, v] of props) if (current.get(k) !== v) return false;
  }
  return true;
}

/** Whether this thread should end now that it has answered (worker.mjs ends it). */
export function pythonThreadRetires(): boolean {
  return retire;
}

function execute(
  interp: Interpreter,
  task: SandboxTask,
): { ok: true; value: unknown } | { ok: false; error: SandboxFailure } {
  const failure = interp.compileUser(task.code) as string | undefined;
  if (failure) return { ok: false, error: fromGuest(JSON.parse(failure) as GuestError, task) };
  const called = interp.callMain(task.inputJson, task.maxOutputChars) as { toJs(): [string, string]; destroy(): void };
  const [status, text] = called.toJs();
  called.destroy();
  switch (status) {
    case 'ok':
      return { ok: true, value: JSON.parse(text) };
    case 'no_main':
      return {
        ok: false,
        error: {
          code: 'CODE_NO_MAIN',
          message: 'the code defines no function main; define def main(...) -> dict to return the output',
        },
      };
    case 'too_large':
      return {
        ok: false,
        error: {
          code: 'CODE_OUTPUT_TOO_LARGE',
          message: `main's result is ${text} characters as JSON; the limit is ${task.maxOutputChars}`,
        },
      };
    case 'invalid':
      return { ok: false, error: { code: 'CODE_INVALID_OUTPUT', message: `main's result is not JSON: ${text}` } };
    default:
      return { ok: false, error: fromGuest(JSON.parse(text) as GuestError, task) };
  }
}

function memoryLimit(task: SandboxTask): SandboxFailure {
  return { code: 'CODE_MEMORY_LIMIT', message: `the code needed more than ${task.memoryMb} MB of memory (memoryMb)` };
}

function fromGuest(e: GuestError, task: SandboxTask): SandboxFailure {
  const at = e.line ? { line: e.line, ...(e.column ? { column: e.column } : {}) } : {};
  const suffix = e.line ? ` (line ${e.line})` : '';
  if (e.kind === 'memory' || current.memoryFull) return memoryLimit(task);
  if (e.kind === 'syntax') return { code: 'CODE_SYNTAX_ERROR', message: `${e.name}: ${e.message}${suffix}`, ...at };
  if (e.kind === 'recursion')
    return { code: 'CODE_STACK_OVERFLOW', message: `the code recursed too deeply: ${e.message}${suffix}`, ...at };
  return { code: 'CODE_ERROR', message: `${e.name}: ${e.message}${suffix}`, ...at };
}
