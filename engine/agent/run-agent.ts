/**
 * The ReAct harness on native function calling. Each round: compact the context if the next request would pass
 * ~85 % of the window → one chat request with the selected tools' schemas (text streamed as node.token) → an
 * `agent.step` span → execute the returned tool calls (allowlist, loop guard, ≤ maxParallelTools at once,
 * per-tool and per-batch timeouts) → append the assistant message and one role:tool message per call, in the
 * model's order, paired by tool_call_id. It ends when the model answers without tool calls.
 *
 * Tool problems never end the run: they go back to the model as text (`policy denied: …`, `tool failed: …`,
 * `tool timed out: …`). What ends it with a clear error: running out of rounds or of token budget, an LLM error
 * left after retries and fallbacks, cancellation and the node timeout.
 */
import { randomUUID } from 'node:crypto';
import { PaiError } from '../errors';
import type { TraceEventType } from '../events/types';
import type { ChatMessage, ChatToolCall, Usage } from '../llm/types';
import { NodePause, type EmitOptions } from '../node-kit/define';
import { abortError } from './abort';
import { DEFAULT_LIMITS, type AgentLimits } from './agent-limits';
import {
  approvalPrompt,
  loadAgentCheckpoint,
  needsApproval,
  type AgentProgress,
  type PendingRound,
  type StoredDecision,
} from './agent-checkpoint';
import { compactMessages, mechanicalSummary, renderTranscript } from './compaction';
import { LoopGuard } from './loop-guard';
import type { ModelChain } from './model-chain';
import { executeBatch } from './tool-batch';
import type { ToolCallRecord } from './tool-call-record';
import { toChatTools } from './tool-registry';
import { estimateRequestTokens } from './tokens';
import { argsPreview, clip, PREVIEW } from './trace-preview';
import type { AgentTool, AgentToolContext } from '../node-kit/agent-services';

/** The limits a run keeps to (agent-limits.ts), for whoever sets them. */
export type { AgentLimits } from './agent-limits';

export interface AgentRunResult {
  text: string;
  rounds: number;
  usage: Usage;
  model: string;
  provider: string;
  finishReason?: string;
  toolCalls: ToolCallRecord[];
  compactions: number;
  messages: ChatMessage[];
}

export interface RunAgentArgs {
  chain: ModelChain;
  messages: ChatMessage[];
  /** The selected tools: their schemas are sent, and they are the only tools a call may reach. */
  tools: AgentTool[];
  toolContext: AgentToolContext;
  limits?: Partial<AgentLimits>;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
  signal: AbortSignal;
  emit(type: TraceEventType, data: Record<string, unknown>, opts?: EmitOptions): void;
  /** The node's span: every round is a child span of it, every tool call a child of its round. */
  nodeSpanId: string;
  newSpanId?: () => string;
  loopGuard?: LoopGuard;
  /**
   * Durable rounds and tool-call approval (agent-checkpoint.ts): each completed round is saved before the next
   * starts, and a resume continues where the last save left off. Absent: the loop keeps its state in memory only.
   */
  progress?: AgentProgress;
}

/** One model turn: what the model said and which tools it asked for, in its round's span. */
interface Turn {
  text: string;
  model: string;
  provider: string;
  finishReason?: string;
  calls: ChatToolCall[];
  stepSpan: string;
}

const defaultSpanId = () => randomUUID().replace(/-/g, '').slice(0, 16);

/** Ids must be unique within the conversation, or results could pair with the wrong call; repair what is not. */
function uniqueIds(calls: ChatToolCall[], round: number, seen: Set<string>): ChatToolCall[] {
  return calls.map((c, i) => {
    let id = c.id;
    if (!id || seen.has(id)) id = `call_r${round}_${i}_${randomUUID().slice(0, 8)}`;
    seen.add(id);
    return id === c.id ? c : { ...c, id };
  });
}

export async function runAgent(a: RunAgentArgs): Promise<AgentRunResult> {
  const L: AgentLimits = { ...DEFAULT_LIMITS, ...a.limits };
  const newSpan = a.newSpanId ?? defaultSpanId;
  const messages = [...a.messages];
  const chatTools = toChatTools(a.tools);
  const byName = new Map(a.tools.map((t) => [t.name, t]));
  const guard = a.loopGuard ?? new LoopGuard();
  const records: ToolCallRecord[] = [];
  const seenIds = new Set<string>();
  let compactions = 0;
  const totalTokens = () => a.chain.usage.inputTokens + a.chain.usage.outputTokens;

  const summarise = async (ms: ChatMessage[]): Promise<string> => {
    const maxChars = Math.max(4000, Math.floor(L.contextWindow * 0.5) * 4);
    try {
      const res = await a.chain.chat({
        messages: [
          {
            role: 'system',
            content:
              "You compress an AI agent's working conversation so it can continue with less context. " +
              'Summarise the transcript: keep every fact, number, name, tool result and decision that may still ' +
              'matter, and what is still open. Plain text, at most 300 words.',
          },
          { role: 'user', content: clip(renderTranscript(ms), maxChars) },
        ],
        temperature: 0,
        maxTokens: 1024,
        signal: a.signal,
      });
      return res.text.trim() || mechanicalSummary(ms);
    } catch {
      if (a.signal.aborted) throw abortError();
      return mechanicalSummary(ms);
    }
  };

  // Continue from the last completed round (and a round waiting for decisions) when the node was here before.
  let firstRound = 1;
  let pending: PendingRound | undefined;
  const restored = a.progress ? await loadAgentCheckpoint(a.progress.checkpoint) : undefined;
  if (restored) {
    const st = restored.state;
    messages.splice(0, messages.length, ...st.messages);
    records.push(...st.records);
    a.chain.usage = { ...st.usage };
    compactions = st.compactions;
    guard.restore(st.guard ?? []);
    for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) seenIds.add(c.id);
    firstRound = st.round + 1;
    pending = st.pending;
    const answer = restored.answer;
    if (pending && answer && pending.calls.some((c) => c.id === answer.callId))
      pending.decisions[answer.callId] = answer;
    a.emit('node.progress', {
      resumedAgent: {
        completedRounds: st.round,
        storedToolCalls: st.records.length,
        ...(pending ? { waitingRound: pending.round } : {}),
      },
    });
  }
  const save = (completedRounds: number, p?: PendingRound) =>
    a.progress?.checkpoint.save({
      v: 1,
      round: completedRounds,
      messages,
      records,
      usage: a.chain.usage,
      compactions,
      guard: guard.snapshot(),
      ...(p ? { pending: p } : {}),
    });

  for (let round = firstRound; ; round++) {
    if (a.signal.aborted) throw abortError();
    let turn: Turn;
    if (pending?.round === round) {
      turn = pending; // the model already answered this round: it is not asked again
    } else {
      const res = await modelTurn(round);
      if (!res.calls.length) {
        return {
          text: res.text,
          rounds: round,
          usage: a.chain.usage,
          model: res.model,
          provider: res.provider,
          finishReason: res.finishReason,
          toolCalls: records,
          compactions,
          messages: [...messages, { role: 'assistant', content: res.text }],
        };
      }
      turn = res;
    }

    // Calls that wait for a person: the round is stored with its model turn, and the run waits (NodePause).
    let decisions: Record<string, StoredDecision> = {};
    const approval = a.progress?.toolApproval ?? [];
    if (approval.length && turn.calls.some((c) => needsApproval(approval, c.name))) {
      const p: PendingRound = pending?.round === round ? pending : { ...turn, round, decisions: {} };
      const waitingCall = p.calls.find((c) => needsApproval(approval, c.name) && !p.decisions[c.id]);
      if (waitingCall) {
        await save(round - 1, p);
        throw new NodePause(approvalPrompt(p, waitingCall, approval));
      }
      decisions = p.decisions;
    }
    pending = undefined;
    // An edited call runs with the person's arguments, and the conversation shows the call as it ran.
    const calls = turn.calls.map((c) => {
      const d = decisions[c.id];
      return d?.decision === 'edit' ? { ...c, arguments: JSON.stringify(d.arguments) } : c;
    });
    messages.push({ role: 'assistant', content: turn.text || null, toolCalls: calls });
    messages.push(
      ...(await executeBatch(a, L, calls, round, turn.stepSpan, byName, guard, records, newSpan, decisions)),
    );
    await save(round);
  }

  /** Compaction when due, one chat request, its `agent.step` span, and the round's limits. */
  async function modelTurn(round: number): Promise<Turn> {
    let compaction: Record<string, unknown> | undefined;
    const limit = Math.floor(L.contextWindow * L.compactAt);
    if (estimateRequestTokens(messages, chatTools) > limit) {
      const r = await compactMessages(messages, { limitTokens: limit, tools: chatTools, summarise });
      if (r.compacted) {
        messages.splice(0, messages.length, ...r.messages);
        compactions++;
        compaction = { beforeTokens: r.beforeTokens, afterTokens: r.afterTokens, replacedMessages: r.replaced };
        a.emit('node.progress', { compaction: { round, ...compaction } });
      }
    }

    const stepSpan = newSpan();
    const t0 = Date.now();
    const res = await a.chain.chat({
      messages,
      tools: chatTools.length ? chatTools : undefined,
      temperature: a.temperature,
      maxTokens: a.maxTokens,
      signal: a.signal,
      onToken: a.stream === false ? undefined : (delta) => a.emit('node.token', { delta, round }),
    });
    const calls = uniqueIds(res.toolCalls, round, seenIds);
    a.emit(
      'agent.step',
      {
        round,
        title: `round ${round}`,
        model: res.model,
        providerName: res.providerName,
        finishReason: res.finishReason ?? null,
        text: clip(res.text, PREVIEW * 2),
        toolCalls: calls.map((c) => ({ id: c.id, name: c.name, args: argsPreview(c.arguments) })),
        usage: res.usage,
        totalUsage: a.chain.usage,
        durationMs: Date.now() - t0,
        ...(compaction ? { compaction } : {}),
      },
      { spanId: stepSpan, parentSpanId: a.nodeSpanId },
    );

    const turn = {
      text: res.text,
      model: res.model,
      provider: res.provider,
      finishReason: res.finishReason,
      calls,
      stepSpan,
    };
    if (!calls.length) return turn;
    if (round >= L.maxRounds) {
      throw new PaiError(
        'AGENT_MAX_ROUNDS',
        `the agent used all ${L.maxRounds} rounds without a final answer ` +
          `(it still wanted to call ${[...new Set(calls.map((c) => c.name))].join(', ')}); ` +
          'raise "maxRounds" or narrow the task',
        {
          details: { rounds: round, usage: a.chain.usage, pendingToolCalls: calls.map((c) => c.name) },
        },
      );
    }
    if (totalTokens() >= L.tokenBudget) {
      throw new PaiError(
        'AGENT_TOKEN_BUDGET',
        `the agent used ${totalTokens()} tokens, over its budget of ${L.tokenBudget}, before a final answer; ` +
          'raise "tokenBudget" or narrow the task',
        {
          details: { rounds: round, usage: a.chain.usage },
        },
      );
    }

    return turn;
  }
}
