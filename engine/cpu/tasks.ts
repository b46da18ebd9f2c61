/**
 * The typed tasks of the CPU pools (pool.ts, worker.mjs): each says which pool it runs on, under which time and
 * memory limit, and which error code a task over its limit fails with.
 */
import { CODE_HARD_TIMEOUT_GRACE_MS } from '../code/limits';
import type { SandboxOutcome, SandboxTask } from '../code/sandbox';
import { PaiError } from '../errors';
import { cpuLimits } from './limits';
import { runInPool } from './pool';

/** Whether RE2 finds `pattern` in `input`, in the quick pool; REGEX_TIMEOUT after `timeoutMs` of matching. */
export function regexInWorker(
  pattern: string,
  input: string,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<boolean> {
  return runInPool<boolean>(
    'quick',
    'regex',
    { pattern, input },
    {
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      onTimeout: () =>
        new PaiError(
          'REGEX_TIMEOUT',
          `the regular expression did not finish on ${input.length} characters within ${opts.timeoutMs} ms ` +
            '(REGEX_TIMEOUT_MS); simplify it or test a shorter value',
        ),
    },
  );
}

/** Batches sent to the embed thread at once: a search's query waits behind at most one of them. */
const EMBED_TASK_TEXTS = 16;

/** Embeds texts with the offline model in the embed pool; EMBEDDING_TIMEOUT for a batch over its time. */
export async function embedInWorker(texts: string[], opts: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
  const { embedBatchTimeoutMs } = cpuLimits();
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += EMBED_TASK_TEXTS) {
    const part = texts.slice(i, i + EMBED_TASK_TEXTS);
    out.push(
      ...(await runInPool<Float32Array[]>(
        'embed',
        'embed',
        { texts: part },
        {
          timeoutMs: embedBatchTimeoutMs,
          signal: opts.signal,
          onTimeout: () =>
            new PaiError(
              'EMBEDDING_TIMEOUT',
              `embedding ${part.length} texts took longer than ${embedBatchTimeoutMs} ms (EMBEDDING_BATCH_TIMEOUT_MS)`,
              { retryable: true },
            ),
        },
      )),
    );
  }
  return out;
}

/**
 * Runs a Code node's JavaScript in a sandbox on the code pool (engine/code/sandbox.ts): the sandbox stops the code
 * at `timeoutMs` itself and answers its failure (with the console lines so far); the pool ends the thread only when
 * the sandbox has not answered CODE_HARD_TIMEOUT_GRACE_MS later, or on `signal` (a cancelled run, the node's own
 * timeout) — the thread's replacement takes the next task.
 */
export function codeInWorker(task: SandboxTask, opts: { signal?: AbortSignal } = {}): Promise<SandboxOutcome> {
  return runInPool<SandboxOutcome>(
    'code',
    'code',
    { ...task },
    {
      timeoutMs: task.timeoutMs + CODE_HARD_TIMEOUT_GRACE_MS,
      signal: opts.signal,
      onTimeout: () =>
        new PaiError('CODE_TIMEOUT', `the code did not finish within ${task.timeoutMs} ms of CPU time (timeoutMs)`),
      onOutOfMemory: () =>
        new PaiError('CODE_MEMORY_LIMIT', "the code's result or console output needed more memory than its thread has"),
    },
  );
}

/**
 * Runs a Code node's Python on the python pool (engine/code/python-sandbox.ts). The pool ends the thread at
 * `timeoutMs` (CODE_TIMEOUT) or on `signal`; a new thread then starts its interpreter at once, so that the next
 * Python node finds it warm. A thread that retires itself after answering (python-sandbox.ts) may be handed a task
 * as it ends: that task runs again once, on a new thread.
 */
export async function pythonInWorker(task: SandboxTask, opts: { signal?: AbortSignal } = {}): Promise<SandboxOutcome> {
  let ended = false;
  const once = () =>
    runInPool<SandboxOutcome>(
      'python',
      'python',
      { ...task },
      {
        timeoutMs: task.timeoutMs,
        signal: opts.signal,
        onTimeout: () => {
          ended = true;
          return new PaiError('CODE_TIMEOUT', `the code did not finish within ${task.timeoutMs} ms (timeoutMs)`, {
            path: 'config.timeoutMs',
          });
        },
        onOutOfMemory: () => {
          ended = true;
          return new PaiError(
            'CODE_MEMORY_LIMIT',
            "the code's result or output needed more memory than its thread has",
            {
              path: 'config.memoryMb',
            },
          );
        },
      },
    );
  try {
    return await once();
  } catch (e) {
    if (e instanceof PaiError || ended || opts.signal?.aborted || !/worker exited/.test(String(e))) throw e;
    return await once();
  } finally {
    if (ended || opts.signal?.aborted) warmPython();
  }
}

/** A thread with a started interpreter in the python pool (after one was ended). */
function warmPython() {
  runInPool('python', 'pythonWarm', {}, { timeoutMs: 120_000, onTimeout: () => new Error('python warm-up') }).catch(
    () => {},
  );
}

/** Time one piece of offline speech may take (a piece is at most a few thousand characters). */
const SPEECH_TIMEOUT_MS = 120_000;

/** Speaks `text` with the offline synthesizer (engine/media/espeak.ts) on the speech pool: a WAV. */
export function speakInWorker(
  text: string,
  opts: { voice: string; wordsPerMinute: number; signal?: AbortSignal },
): Promise<Uint8Array> {
  return runInPool<Uint8Array>(
    'speech',
    'speech',
    { text, voice: opts.voice, wordsPerMinute: opts.wordsPerMinute },
    {
      timeoutMs: SPEECH_TIMEOUT_MS,
      signal: opts.signal,
      onTimeout: () =>
        new PaiError('TTS_TIMEOUT', `the offline synthesizer took longer than ${SPEECH_TIMEOUT_MS} ms on one piece`, {
          retryable: true,
        }),
    },
  );
}
