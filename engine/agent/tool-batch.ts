/**
 * One round's tool calls, as the ReAct loop (run-agent.ts) hands them over: policy first (allowlist, loop guard,
 * argument parsing) sequentially in the model's order, then the allowed calls at most `maxParallelTools` at once
 * under per-tool and per-batch deadlines. Every call gets a trace span and exactly one role:tool message, in the
 * model's order; a tool's failure becomes text for the model, only cancellation throws.
 */
import type { TraceEventType } from '../events/types';
import type { ChatMessage, ChatToolCall } from '../llm/types';
import type { EmitOptions } from '../node-kit/define';
import { abortError, raceAbort } from './abort';
import type { StoredDecision } from './agent-checkpoint';
import type { AgentLimits } from './agent-limits';
import type { LoopGuard } from './loop-guard';
import type { ToolCallRecord } from './tool-call-record';
import { classifyToolError, ToolTimeoutError, type ToolOutcomeKind } from './tool-errors';
import { argsPreview, clip, PREVIEW } from './trace-preview';
import type { AgentTool, AgentToolContext } from '../node-kit/agent-services';

/** What a batch needs of the agent's run (run-agent.ts hands over its RunAgentArgs). */
export interface BatchRun {
  toolContext: AgentToolContext;
  signal: AbortSignal;
  emit(type: TraceEventType, data: Record<string, unknown>, opts?: EmitOptions): void;
}

function parseArgs(raw: string): { args?: Record<string, unknown>; error?: string } {
  if (!raw.trim()) return { args: {} };
  try {
    const v = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return { args: v as Record<string, unknown> };
    return { error: 'the arguments must be a JSON object' };
  } catch (e) {
    return { error: `the arguments are not valid JSON (${(e as Error).message})` };
  }
}

function resultText(v: unknown): string {
  if (v === undefined || v === null || v === '') return '(no output)';
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(workers);
}

export async function executeBatch(
  a: BatchRun,
  L: AgentLimits,
  calls: ChatToolCall[],
  round: number,
  stepSpan: string,
  byName: Map<string, AgentTool>,
  guard: LoopGuard,
  records: ToolCallRecord[],
  newSpan: () => string,
  /** A person's decisions on calls that needed approval (agent-checkpoint.ts), by call id. */
  decisions: Record<string, StoredDecision> = {},
): Promise<ChatMessage[]> {
  const results: string[] = new Array(calls.length);
  const roundRecords: ToolCallRecord[] = new Array(calls.length);
  const jobs: {
    i: number;
    call: ChatToolCall;
    tool: AgentTool;
    args: Record<string, unknown>;
    warning?: string;
    spanId: string;
  }[] = [];

  // Policy first, sequentially and in the model's order, so loop-guard counts are deterministic.
  calls.forEach((call, i) => {
    const spanId = newSpan();
    const tool = byName.get(call.name);
    const decided = decisions[call.id];
    if (decided) {
      a.emit(
        'tool.approval',
        {
          round,
          toolCallId: call.id,
          name: call.name,
          decision: decided.decision,
          ...(decided.decision === 'edit' ? { arguments: decided.arguments } : {}),
          ...(decided.decision === 'reject' && decided.message ? { message: decided.message } : {}),
          by: decided.by ?? null,
          at: decided.at ?? null,
        },
        { spanId, parentSpanId: stepSpan },
      );
    }
    const deny = (reason: string, message: string) => {
      a.emit(
        'tool.denied',
        { round, toolCallId: call.id, name: call.name, args: argsPreview(call.arguments), reason, message },
        { spanId, parentSpanId: stepSpan },
      );
      roundRecords[i] = { round, id: call.id, name: call.name, status: 'denied', durationMs: 0 };
      results[i] = `policy denied: ${message}`;
    };
    if (decided?.decision === 'reject') {
      const who = decided.by?.name ? ` (${decided.by.name})` : '';
      const message = `a person${who} refused this tool call` + (decided.message ? `: ${decided.message}` : '');
      return deny('rejected', message);
    }
    if (!tool) {
      const offered = [...byName.keys()];
      return deny(
        'not_allowed',
        `tool "${call.name}" is not available to this agent` +
          (offered.length ? `; available tools: ${offered.join(', ')}` : '; it has no tools'),
      );
    }
    const verdict = guard.check(call.name, call.arguments);
    if (verdict.action === 'block') return deny('loop_guard', verdict.message);
    const parsed = parseArgs(call.arguments);
    if (parsed.error) {
      a.emit(
        'tool.called',
        { round, toolCallId: call.id, name: call.name, args: argsPreview(call.arguments) },
        { spanId, parentSpanId: stepSpan },
      );
      results[i] = `tool failed: ${parsed.error}`;
      a.emit(
        'tool.result',
        { round, toolCallId: call.id, name: call.name, status: 'failed', ok: false, result: results[i], durationMs: 0 },
        { spanId, parentSpanId: stepSpan },
      );
      roundRecords[i] = { round, id: call.id, name: call.name, status: 'failed', durationMs: 0 };
      return;
    }
    jobs.push({
      i,
      call,
      tool,
      args: parsed.args!,
      spanId,
      ...(verdict.action === 'warn' ? { warning: verdict.message } : {}),
    });
  });

  const batch = new AbortController();
  const batchTimer = setTimeout(
    () =>
      batch.abort(
        new ToolTimeoutError(
          `the ${jobs.length} tool call(s) of round ${round} did not all finish within ${L.batchTimeoutMs} ms`,
        ),
      ),
    L.batchTimeoutMs,
  );
  try {
    await pool(jobs, L.maxParallelTools, async (job) => {
      const { call, spanId } = job;
      a.emit(
        'tool.called',
        { round, toolCallId: call.id, name: call.name, args: job.args },
        { spanId, parentSpanId: stepSpan },
      );
      const t0 = Date.now();
      let kind: ToolOutcomeKind;
      let text: string;
      let code: string | undefined;
      const own = new AbortController();
      const timer = setTimeout(
        () => own.abort(new ToolTimeoutError(`"${call.name}" did not finish within ${L.toolTimeoutMs} ms`)),
        L.toolTimeoutMs,
      );
      const signal = AbortSignal.any([a.signal, batch.signal, own.signal]);
      try {
        // The batch deadline passed before this call got a slot: never start it.
        if (signal.aborted) throw signal.reason;
        const value = await raceAbort(
          job.tool.execute(job.args, {
            ...a.toolContext,
            // The operation: the same on every retry, resume and restart (`runId:nodeId:round:callIndex`).
            idempotencyKey: `${a.toolContext.idempotencyKey}:${round}:${job.i}`,
            signal,
            timeoutMs: L.toolTimeoutMs,
            callId: call.id,
          }),
          signal,
        );
        kind = 'ok';
        text = clip(resultText(value), L.maxToolResultChars);
      } catch (err) {
        if (a.signal.aborted) throw abortError();
        // A tool that rejects because its signal fired reports the deadline, not its own AbortError.
        ({ kind, text, code } = classifyToolError(signal.aborted ? signal.reason : err));
        text = clip(text, L.maxToolResultChars);
      } finally {
        clearTimeout(timer);
      }
      if (job.warning) text = `${text}\n\n${job.warning}`;
      const durationMs = Date.now() - t0;
      results[job.i] = text;
      a.emit(
        'tool.result',
        {
          round,
          toolCallId: call.id,
          name: call.name,
          status: kind,
          ok: kind === 'ok',
          ...(code ? { code } : {}),
          result: clip(text, PREVIEW),
          durationMs,
          ...(job.warning ? { warning: job.warning } : {}),
        },
        { spanId, parentSpanId: stepSpan },
      );
      roundRecords[job.i] = {
        round,
        id: call.id,
        name: call.name,
        status: kind,
        durationMs,
        ...(job.warning ? { warned: true } : {}),
      };
    });
  } finally {
    clearTimeout(batchTimer);
  }
  if (a.signal.aborted) throw abortError();
  records.push(...roundRecords);
  return calls.map((c, i) => ({ role: 'tool' as const, toolCallId: c.id, content: results[i] }));
}
