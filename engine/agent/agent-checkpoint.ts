/**
 * An agent's durable progress (NodeContext.checkpoint): the conversation after each completed round, with the tool
 * calls made, the usage so far and the loop guard's memory, so a resume continues at the first round that did not
 * complete and never runs a stored call again. A round whose tool calls wait for a person (toolApproval) is stored
 * with its model turn and the decisions made so far: the model is not asked again, and each call runs (or not) as
 * the person decided.
 */
import type { ChatMessage, ChatToolCall, Usage } from '../llm/types';
import type { NodeCheckpoint, ConfigProblem } from '../node-kit/define';
import type { ToolCallRecord } from './tool-call-record';

export type ApprovalDecision =
  | { decision: 'approve' }
  | { decision: 'edit'; arguments: Record<string, unknown> }
  | { decision: 'reject'; message?: string };

/** A decision as stored: what was decided, about which call, by whom and when. */
export type StoredDecision = ApprovalDecision & {
  callId: string;
  by?: { userId: string; name: string } | null;
  at?: string;
};

export interface PendingRound {
  round: number;
  stepSpan: string;
  text: string;
  model: string;
  provider: string;
  finishReason?: string;
  calls: ChatToolCall[];
  decisions: Record<string, StoredDecision>;
}

export interface AgentCheckpointState {
  v: 1;
  /** Rounds completed (their tool results are in `messages`). */
  round: number;
  messages: ChatMessage[];
  records: ToolCallRecord[];
  usage: Usage;
  compactions: number;
  guard: { name: string; key: string }[];
  /** A round whose model turn is done and whose calls wait for (or have) a person's decisions. */
  pending?: PendingRound;
}

/** Durable progress for runAgent: absent for agents that need none (a multi-agent worker's step is its unit). */
export interface AgentProgress {
  checkpoint: NodeCheckpoint;
  /** Tool names or `prefix*` patterns (`*`: every tool) whose calls wait for a person's decision. */
  toolApproval: string[];
}

export function needsApproval(patterns: string[], name: string): boolean {
  return patterns.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : p === name));
}

export async function loadAgentCheckpoint(
  c: NodeCheckpoint | undefined,
): Promise<{ state: AgentCheckpointState; answer?: StoredDecision } | undefined> {
  const loaded = await c?.load<AgentCheckpointState>();
  if (!loaded || loaded.state?.v !== 1 || !Array.isArray(loaded.state.messages)) return undefined;
  return loaded as { state: AgentCheckpointState; answer?: StoredDecision };
}

/** What the person is shown while a call waits (the run.waiting prompt; GET /api/runs/:id shows it too). */
export function approvalPrompt(pending: PendingRound, call: ChatToolCall, patterns: string[]) {
  let args: unknown = call.arguments;
  try {
    args = JSON.parse(call.arguments || '{}');
  } catch {
    // shown as the model sent it
  }
  const undecided = pending.calls.filter((c) => needsApproval(patterns, c.name) && !pending.decisions[c.id]).length;
  return {
    kind: 'tool_approval',
    round: pending.round,
    callId: call.id,
    name: call.name,
    arguments: args,
    pendingCalls: undecided,
  };
}

const problem = (code: string, message: string, path: string): { problem: ConfigProblem } => ({
  problem: { code, message, path },
});

/** The Agent node's acceptAnswer: `{ decision: "approve" | "edit" | "reject", arguments?, message?, callId? }`. */
export function acceptApproval(
  prompt: Record<string, unknown>,
  answer: unknown,
): { value: unknown } | { problem: ConfigProblem } {
  if (prompt.kind !== 'tool_approval') return problem('INVALID_ANSWER', 'this node is not waiting for an answer', '');
  if (!answer || typeof answer !== 'object' || Array.isArray(answer))
    return problem('INVALID_ANSWER', 'answer with { decision: "approve" | "edit" | "reject" }', '');
  const a = answer as Record<string, unknown>;
  if (a.callId !== undefined && a.callId !== prompt.callId)
    return problem('WRONG_CALL', `the agent is waiting on tool call "${String(prompt.callId)}"`, 'callId');
  const callId = String(prompt.callId);
  switch (a.decision) {
    case 'approve':
      return { value: { decision: 'approve', callId } };
    case 'edit': {
      const args = a.arguments;
      if (!args || typeof args !== 'object' || Array.isArray(args))
        return problem('INVALID_ANSWER', 'an edit needs the new arguments as a JSON object', 'arguments');
      if (JSON.stringify(args).length > 1_000_000)
        return problem('INVALID_ANSWER', 'the edited arguments are over 1,000,000 characters', 'arguments');
      return { value: { decision: 'edit', callId, arguments: args } };
    }
    case 'reject': {
      if (a.message !== undefined && typeof a.message !== 'string')
        return problem('INVALID_ANSWER', 'the message must be text', 'message');
      const message = typeof a.message === 'string' ? a.message.slice(0, 4000) : undefined;
      return { value: { decision: 'reject', callId, ...(message ? { message } : {}) } };
    }
    default:
      return problem('INVALID_ANSWER', 'decision must be "approve", "edit" or "reject"', 'decision');
  }
}
