/**
 * Runs a Code node's JavaScript in QuickJS compiled to WebAssembly (quickjs-emscripten), never in our own engine:
 * the guest has the language and its built-ins (JSON, Math, Date, …), a `console` that hands lines to us, and nothing
 * else — no module loader (so `import()` rejects), no host functions besides `console`, no network, files or process.
 *
 * Each execution gets a fresh WebAssembly instance, created from a module compiled once per thread, on a linear
 * memory of its own: a new one, or one an earlier execution left at its initial size, zeroed (see `spares`). Nothing
 * one execution leaves behind (a changed prototype, a global, its data, a broken engine after an out-of-memory) can
 * reach the next.
 *
 * Limits:
 * - CPU time: an interrupt handler QuickJS calls as it runs stops the code at the deadline (uncatchable in the guest).
 *   A few built-ins do not check it while they run (JSON.stringify is quadratic in nesting depth and checks nothing):
 *   the pool ends such a thread CODE_HARD_TIMEOUT_GRACE_MS after the deadline.
 * - Memory: the instance's memory has a fixed maximum of `memoryMb` beyond the engine's own 16 MB. QuickJS's own
 *   `setMemoryLimit` is set too, but in this build it only bounds a single allocation — it counts each block as
 *   8 bytes, since emscripten reports no usable size (justjake/quickjs-emscripten#271) — so the memory's maximum
 *   is the real bound: a growth beyond it fails, malloc returns NULL and QuickJS throws "out of memory". A growth
 *   refused at the maximum is noted (a wrapped `grow`), so a failure after it reads as CODE_MEMORY_LIMIT even when
 *   QuickJS had no memory left to build its error.
 * - Stack: `setMaxStackSize` (see CODE_STACK_BYTES) makes deep recursion a guest error.
 * - Output and console: lengths are read inside the guest before anything is copied out.
 *
 * This runs in a worker thread of the `code` pool (engine/cpu/worker.mjs); engine/cpu/tasks.ts codeInWorker() is the
 * way in. Its handles are not disposed one by one: the whole instance is dropped after each execution (and its
 * memory zeroed or let go).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC,
  type QuickJSContext,
  type QuickJSHandle,
} from 'quickjs-emscripten';
import { CODE_MAX_LOG_CHARS, CODE_MAX_LOG_LINE_CHARS, CODE_MAX_LOG_LINES, CODE_STACK_BYTES } from './limits';
import { PRELUDE_FILE, PRELUDE_SOURCE } from './prelude';

/** The user's code in guest stack traces and error lines. */
const USER_FILE = 'main.js';
const MB = 1024 * 1024;
const PAGE_BYTES = 65536;
const PAGES_PER_MB = 16;
/** The build's initial memory (16 MB): the engine's data, its stack and the start of the heap. */
const ENGINE_PAGES = 256;

export type CodeErrorCode =
  | 'CODE_SYNTAX_ERROR'
  | 'CODE_NO_MAIN'
  | 'CODE_ERROR'
  | 'CODE_TIMEOUT'
  | 'CODE_MEMORY_LIMIT'
  | 'CODE_STACK_OVERFLOW'
  | 'CODE_INVALID_OUTPUT'
  | 'CODE_OUTPUT_TOO_LARGE';

export interface SandboxTask {
  code: string;
  /** main's input, as JSON text (parsed inside the guest). */
  inputJson: string;
  timeoutMs: number;
  memoryMb: number;
  maxOutputChars: number;
}

export interface ConsoleLine {
  level: 'log' | 'info' | 'warn' | 'error';
  text: string;
}

export interface SandboxFailure {
  code: CodeErrorCode;
  message: string;
  /** Where in the user's code (1-based), when the guest's error says so. */
  line?: number;
  column?: number;
}

export type SandboxOutcome = ({ ok: true; value: unknown } | { ok: false; error: SandboxFailure }) & {
  logs: ConsoleLine[];
  /** console lines past the limits: counted, not kept. */
  droppedLogs: number;
};

const g = globalThis as unknown as { __paiflowQuickJsWasm?: Promise<WebAssembly.Module> };

/** The QuickJS WebAssembly module of the RELEASE_SYNC variant, compiled once per thread. */
function compiledWasm(): Promise<WebAssembly.Module> {
  g.__paiflowQuickJsWasm ??= (async () => {
    // Resolved from quickjs-emscripten itself, which depends on this exact variant.
    const fromPackage = createRequire(createRequire(import.meta.url).resolve('quickjs-emscripten'));
    const bytes = readFileSync(fromPackage.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'));
    return WebAssembly.compile(bytes);
  })().catch((e) => {
    g.__paiflowQuickJsWasm = undefined;
    throw e;
  });
  return g.__paiflowQuickJsWasm;
}

/** console lines within the limits (CODE_MAX_LOG_*); the guest cuts each line, we check again. */
class ConsoleSink {
  readonly lines: ConsoleLine[] = [];
  dropped = 0;
  private chars = 0;

  constructor(private readonly ctx: QuickJSContext) {}

  add(levelHandle: QuickJSHandle | undefined, textHandle: QuickJSHandle | undefined) {
    const { ctx } = this;
    if (this.lines.length >= CODE_MAX_LOG_LINES || this.chars >= CODE_MAX_LOG_CHARS) {
      this.dropped++;
      return;
    }
    if (!levelHandle || !textHandle || ctx.typeof(textHandle) !== 'string') return;
    const length = ctx.getNumber(ctx.getProp(textHandle, 'length'));
    if (!(length <= CODE_MAX_LOG_LINE_CHARS + 1)) {
      this.dropped++;
      return;
    }
    const text = ctx.getString(textHandle);
    const level = ctx.typeof(levelHandle) === 'string' ? ctx.getString(levelHandle) : 'log';
    this.chars += text.length;
    this.lines.push({ level: level === 'info' || level === 'warn' || level === 'error' ? level : 'log', text });
  }
}

interface GuestError {
  type?: string;
  name?: string;
  message?: string;
  stack?: string;
  line?: number;
  column?: number;
  file?: string;
}

/** Runs `task.code`'s main on `task.inputJson` in a fresh sandbox (see the top of this file). Never throws. */
export async function runSandboxed(task: SandboxTask): Promise<SandboxOutcome> {
  const state: SandboxState = { deadline: Infinity, timedOut: false, memoryFull: false };
  let sink: ConsoleSink | undefined;
  const done = (r: { ok: true; value: unknown } | { ok: false; error: SandboxFailure }): SandboxOutcome => ({
    ...r,
    logs: sink?.lines ?? [],
    droppedLogs: sink?.dropped ?? 0,
  });
  const maximum = ENGINE_PAGES + task.memoryMb * PAGES_PER_MB;
  const memory = takeMemory(maximum);
  try {
    const ctx = await newSandbox(task, state, memory);
    sink = new ConsoleSink(ctx);
    const guest = setUp(ctx, sink);
    const failed = (h: QuickJSHandle | undefined, compiling = false) =>
      done({ ok: false, error: classify(ctx, guest, h, task, state, compiling) });

    // Syntax first (compile only), so that a SyntaxError thrown while the code runs (JSON.parse) is not one.
    state.deadline = Date.now() + task.timeoutMs;
    const compiled = ctx.evalCode(task.code, USER_FILE, { compileOnly: true });
    if (compiled.error) return failed(compiled.error, true);
    const top = ctx.evalCode(task.code, USER_FILE);
    if (top.error) return failed(top.error);
    const main = ctx.evalCode('typeof main === "function" ? main : undefined', 'paiflow-main.js');
    if (main.error) return failed(main.error);
    if (ctx.typeof(main.value) !== 'function')
      return done({
        ok: false,
        error: {
          code: 'CODE_NO_MAIN',
          message: 'the code defines no function main(input); define one to return the output',
        },
      });

    const called = ctx.callFunction(guest.run, ctx.undefined, main.value, ctx.newString(task.inputJson));
    if (called.error) return failed(called.error);
    const settled = settle(ctx, called.value);
    // An interrupt inside a promise job may leave no error behind, only a promise nobody settles.
    if ('never' in settled && (state.timedOut || state.memoryFull)) return failed(undefined);
    if ('never' in settled)
      return done({
        ok: false,
        error: {
          code: 'CODE_ERROR',
          message: 'main returned a promise that never settles (the sandbox has no timers or I/O to wait for)',
        },
      });
    if ('error' in settled) return failed(settled.error);

    return done(readResult(ctx, guest, settled.value, task, state));
  } catch (e) {
    // A failure of the engine itself (not of the guest's code): the instance is dropped with everything in it.
    if (state.memoryFull) return done({ ok: false, error: memoryLimit(task) });
    if (state.timedOut) return done({ ok: false, error: timeout(task) });
    // The thread's native stack ran out before QuickJS's own check (CODE_THREAD_STACK_MB is meant to prevent it).
    if (e instanceof RangeError && /call stack/i.test(e.message)) return done({ ok: false, error: stackOverflow({}) });
    return done({ ok: false, error: { code: 'CODE_ERROR', message: `the sandbox failed: ${(e as Error).message}` } });
  } finally {
    giveBack(memory, maximum);
  }
}

/** main's settled value as JSON, within the output limit, parsed on our side (nothing the guest says is trusted). */
function readResult(
  ctx: QuickJSContext,
  guest: Guest,
  value: QuickJSHandle,
  task: SandboxTask,
  state: SandboxState,
): { ok: true; value: unknown } | { ok: false; error: SandboxFailure } {
  const json = ctx.callFunction(guest.toJson, ctx.undefined, value);
  if (json.error) {
    if (state.timedOut || state.memoryFull) return { ok: false, error: classify(ctx, guest, json.error, task, state) };
    const why = describe(ctx, guest, json.error);
    return { ok: false, error: invalidOutput(`it cannot be turned into JSON (${why?.message ?? 'unknown'})`) };
  }
  if (ctx.typeof(json.value) !== 'string')
    return { ok: false, error: invalidOutput('main returned undefined, a function or a symbol') };
  // Code was stopped somewhere (a job whose failure nobody saw): what main returned may be incomplete.
  if (state.timedOut) return { ok: false, error: timeout(task) };
  const length = ctx.getNumber(ctx.getProp(json.value, 'length'));
  if (!(length <= task.maxOutputChars))
    return {
      ok: false,
      error: {
        code: 'CODE_OUTPUT_TOO_LARGE',
        message: `main's result is ${length} characters as JSON; the limit is ${task.maxOutputChars}`,
      },
    };
  try {
    return { ok: true, value: JSON.parse(ctx.getString(json.value)) };
  } catch {
    return { ok: false, error: invalidOutput('its JSON text does not parse (was JSON.stringify changed?)') };
  }
}

/**
 * Memories of finished executions that never grew past the engine's own 16 MB, zeroed, by maximum size (at most
 * two sizes kept). A zeroed memory is as good as a new one for a new instance — nothing of the execution before is
 * left in it — and much cheaper: V8 counts each new 16 MB memory against its external-memory budget and collects
 * garbage for it, which measured ~1 collection per execution (2 ms p50 in a small heap, 16 ms with 50 MB of heap),
 * against 1.3 ms p50 for zeroing and a new instance.
 */
const spares = new Map<number, WebAssembly.Memory>();

function takeMemory(maximum: number): WebAssembly.Memory {
  const spare = spares.get(maximum);
  if (!spare) return new WebAssembly.Memory({ initial: ENGINE_PAGES, maximum });
  spares.delete(maximum);
  return spare;
}

function giveBack(memory: WebAssembly.Memory, maximum: number) {
  if (memory.buffer.byteLength !== ENGINE_PAGES * PAGE_BYTES) return; // grown: let it go
  new Uint8Array(memory.buffer).fill(0);
  spares.delete(maximum);
  spares.set(maximum, memory);
  for (const key of spares.keys()) if (spares.size > 2) spares.delete(key);
}

/**
 * A fresh instance on `memory` (which may grow to `memoryMb` beyond the engine's own 16 MB), a runtime with the
 * limits and an interrupt handler that stops the code once `state.deadline` has passed, and a context in it.
 */
async function newSandbox(task: SandboxTask, state: SandboxState, memory: WebAssembly.Memory): Promise<QuickJSContext> {
  memory.grow = (delta: number) => {
    try {
      return WebAssembly.Memory.prototype.grow.call(memory, delta);
    } catch (e) {
      state.memoryFull = true;
      throw e;
    }
  };
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, { wasmModule: await compiledWasm(), wasmMemory: memory }),
  );
  const rt = quickjs.newRuntime();
  rt.setMemoryLimit(task.memoryMb * MB);
  rt.setMaxStackSize(CODE_STACK_BYTES);
  rt.setInterruptHandler(() => {
    if (Date.now() < state.deadline) return false;
    state.timedOut = true;
    return true;
  });
  return rt.newContext();
}

interface SandboxState {
  /** When the code's CPU time is up (Date.now()); Infinity while our own setup runs. */
  deadline: number;
  /** The interrupt handler stopped the code at its deadline. */
  timedOut: boolean;
  /** The memory refused to grow past its maximum. */
  memoryFull: boolean;
}

interface Guest {
  run: QuickJSHandle;
  toJson: QuickJSHandle;
  describe: QuickJSHandle;
}

function setUp(ctx: QuickJSContext, sink: ConsoleSink): Guest {
  const factory = ctx.unwrapResult(ctx.evalCode(PRELUDE_SOURCE, PRELUDE_FILE));
  const log = ctx.newFunction('log', (level, text) => sink.add(level, text));
  const api = ctx.unwrapResult(ctx.callFunction(factory, ctx.undefined, log));
  return { run: ctx.getProp(api, 'run'), toJson: ctx.getProp(api, 'toJson'), describe: ctx.getProp(api, 'describe') };
}

/** Runs promise jobs until `h` settles; `never` when none are left and it is still pending. */
function settle(
  ctx: QuickJSContext,
  h: QuickJSHandle,
): { value: QuickJSHandle } | { error: QuickJSHandle } | { never: true } {
  for (;;) {
    const s = ctx.getPromiseState(h);
    if (s.type === 'fulfilled') return { value: s.value };
    if (s.type === 'rejected') return { error: s.error };
    const jobs = ctx.runtime.executePendingJobs();
    if (jobs.error) return { error: jobs.error };
    if (jobs.value === 0) return { never: true };
  }
}

function describe(ctx: QuickJSContext, guest: Guest, h: QuickJSHandle): GuestError | undefined {
  const r = ctx.callFunction(guest.describe, ctx.undefined, h);
  if (r.error || ctx.typeof(r.value) !== 'string') return undefined;
  try {
    return JSON.parse(ctx.getString(r.value)) as GuestError;
  } catch {
    return undefined;
  }
}

/** Where the user's code threw: the error's own line (syntax errors), else the first main.js frame of its stack. */
function whereIn(e: GuestError): { line?: number; column?: number } {
  if (e.file === USER_FILE && typeof e.line === 'number') return { line: e.line, column: e.column };
  const m = /\bmain\.js:(\d+)(?::(\d+))?/.exec(e.stack ?? '');
  return m ? { line: Number(m[1]), column: m[2] ? Number(m[2]) : undefined } : {};
}

function timeout(task: SandboxTask): SandboxFailure {
  return {
    code: 'CODE_TIMEOUT',
    message: `the code did not finish within ${task.timeoutMs} ms of CPU time (timeoutMs)`,
  };
}

function memoryLimit(task: SandboxTask): SandboxFailure {
  return { code: 'CODE_MEMORY_LIMIT', message: `the code needed more than ${task.memoryMb} MB of memory (memoryMb)` };
}

function stackOverflow(at: { line?: number; column?: number }): SandboxFailure {
  const suffix = at.line ? ` (line ${at.line})` : '';
  return {
    code: 'CODE_STACK_OVERFLOW',
    message: `the code recursed too deeply: its stack is limited to ${CODE_STACK_BYTES / 1024} KB${suffix}`,
    ...at,
  };
}

function invalidOutput(why: string): SandboxFailure {
  return { code: 'CODE_INVALID_OUTPUT', message: `main's result is not JSON: ${why}` };
}

function classify(
  ctx: QuickJSContext,
  guest: Guest,
  h: QuickJSHandle | undefined,
  task: SandboxTask,
  state: SandboxState,
  compiling = false,
): SandboxFailure {
  if (state.timedOut) return timeout(task);
  const e = h ? describe(ctx, guest, h) : undefined;
  if (state.memoryFull || (e?.name === 'InternalError' && e.message === 'out of memory')) return memoryLimit(task);
  if (state.timedOut) return timeout(task); // the description itself ran out of time
  if (!e) return { code: 'CODE_ERROR', message: 'the code threw a value that could not be read' };
  const at = whereIn(e);
  const suffix = at.line ? ` (line ${at.line})` : '';
  // QuickJS says "stack overflow" as an InternalError, or as a SyntaxError from its parsers (JSON.parse, compiling).
  if (e.message === 'stack overflow') return stackOverflow(at);
  if (compiling && e.name === 'SyntaxError')
    return { code: 'CODE_SYNTAX_ERROR', message: `SyntaxError: ${e.message}${suffix}`, ...at };
  const what = e.name ? `${e.name}: ${e.message ?? ''}` : `the code threw ${e.message ?? 'a value'}`;
  return { code: 'CODE_ERROR', message: `${what}${suffix}`, ...at };
}
