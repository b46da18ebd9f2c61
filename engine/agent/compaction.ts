/**
 * Context compaction. When the next request would pass the trigger (~85 % of the model's window), older parts of
 * the conversation are replaced by one summary message. What is never touched:
 *  - the head: leading system messages and the first user message (the task);
 *  - the last `keepUserTurns` user turns (a user message and everything after it up to the next user message),
 *    except that inside the current turn older *rounds* may be summarised when the turn alone is too big;
 *  - the last `keepRounds` rounds of the current turn;
 *  - pairing: cuts are made only before a user message (turn boundary) or before an assistant message that
 *    starts a round (round boundary), so an assistant message with tool_calls always keeps all its tool results.
 *
 * Two passes, cheapest first: (A) summarise whole user turns between the task and the protected turns; (B) when
 * still over the limit, summarise the current turn's older rounds (the single-task ReAct case, where a run is one
 * user turn with many tool rounds). The user's own messages are never summarised away by pass B.
 */
import type { ChatMessage, ChatTool } from '../llm/types';
import { estimateRequestTokens } from './tokens';

export const SUMMARY_PREFIX = '[Summary of earlier conversation — compacted to fit the context window]';
export const ROUNDS_SUMMARY_PREFIX = '[Summary of my earlier steps on this task — compacted to fit the context window]';

/** Spans smaller than this are not worth a summary request. */
const MIN_SPAN_TOKENS = 128;

export interface CompactionOptions {
  /** Token estimate above which the request is compacted. */
  limitTokens: number;
  tools?: ChatTool[];
  keepUserTurns?: number;
  keepRounds?: number;
  /** Writes the summary (the LLM in the agent; must not throw — fall back to `mechanicalSummary`). */
  summarise(messages: ChatMessage[]): Promise<string>;
}

export interface CompactionResult {
  messages: ChatMessage[];
  compacted: boolean;
  /** Number of original messages replaced by summaries. */
  replaced: number;
  beforeTokens: number;
  afterTokens: number;
}

/** Index just past the head (leading system messages + the first user message), or -1 when there is no user message. */
function headEnd(messages: ChatMessage[]): number {
  const first = messages.findIndex((m) => m.role === 'user');
  return first < 0 ? -1 : first + 1;
}

/** Pass A's span: whole user turns after the task and before the protected last `keep` turns. */
export function userTurnSpan(messages: ChatMessage[], keep: number): [number, number] | null {
  const h = headEnd(messages);
  if (h < 0) return null;
  const users = messages.map((m, i) => (m.role === 'user' ? i : -1)).filter((i) => i >= h);
  if (users.length <= keep) return null; // the protected turns reach back to the task
  const end = users[users.length - keep];
  return end > h ? [h, end] : null;
}

/** Pass B's span: the current (last) turn's rounds except the last `keep`; starts after its user message. */
export function roundSpan(messages: ChatMessage[], keep: number): [number, number] | null {
  const h = headEnd(messages);
  if (h < 0) return null;
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i].role === 'user') {
      lastUser = i;
      break;
    }
  const start = Math.max(lastUser + 1, h);
  // Round boundaries: assistant messages (tool messages always follow their assistant, so never a boundary).
  const rounds: number[] = [];
  for (let i = start; i < messages.length; i++) if (messages[i].role === 'assistant') rounds.push(i);
  if (rounds.length <= keep) return null;
  const end = rounds[rounds.length - keep];
  // A summary from an earlier pass B sits at `start` and is folded into the new one.
  return end > start ? [start, end] : null;
}

export async function compactMessages(messages: ChatMessage[], o: CompactionOptions): Promise<CompactionResult> {
  const keepUserTurns = o.keepUserTurns ?? 3;
  const keepRounds = o.keepRounds ?? 2;
  const beforeTokens = estimateRequestTokens(messages, o.tools);
  let out = messages;
  let replaced = 0;
  if (beforeTokens <= o.limitTokens)
    return { messages, compacted: false, replaced, beforeTokens, afterTokens: beforeTokens };

  // Each pass is kept only if it really shrinks the request (a summary can outweigh a short span).
  const apply = async (span: [number, number] | null, wrap: (summary: string) => ChatMessage) => {
    if (!span || estimateRequestTokens(out.slice(span[0], span[1])) < MIN_SPAN_TOKENS) return;
    const summary = await o.summarise(out.slice(span[0], span[1]));
    const next = [...out.slice(0, span[0]), wrap(summary), ...out.slice(span[1])];
    if (estimateRequestTokens(next, o.tools) >= estimateRequestTokens(out, o.tools)) return;
    replaced += span[1] - span[0];
    out = next;
  };
  await apply(userTurnSpan(out, keepUserTurns), (s) => ({ role: 'user', content: `${SUMMARY_PREFIX}\n${s}` }));
  if (estimateRequestTokens(out, o.tools) > o.limitTokens) {
    await apply(roundSpan(out, keepRounds), (s) => ({ role: 'assistant', content: `${ROUNDS_SUMMARY_PREFIX}\n${s}` }));
  }
  const afterTokens = estimateRequestTokens(out, o.tools);
  return { messages: out, compacted: out !== messages, replaced, beforeTokens, afterTokens };
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The transcript a summariser reads: one line per message, long contents clipped. */
export function renderTranscript(messages: ChatMessage[], perMessageChars = 2000): string {
  const names = new Map<string, string>();
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
      const calls = (m.toolCalls ?? []).map((c) => `${c.name}(${clip(c.arguments, 300)})`).join(', ');
      lines.push(
        `[assistant]${m.content ? ` ${clip(m.content, perMessageChars)}` : ''}${calls ? ` → called ${calls}` : ''}`,
      );
    } else if (m.role === 'tool') {
      lines.push(`[tool ${names.get(m.toolCallId) ?? m.toolCallId}] ${clip(m.content, perMessageChars)}`);
    } else {
      lines.push(`[${m.role}] ${clip(m.content, perMessageChars)}`);
    }
  }
  return lines.join('\n');
}

/** Used when the LLM summary fails: the transcript itself, clipped hard. */
export function mechanicalSummary(messages: ChatMessage[], maxChars = 4000): string {
  return clip(renderTranscript(messages, 300), maxChars);
}
