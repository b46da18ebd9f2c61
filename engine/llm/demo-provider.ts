/**
 * Offline, deterministic stand-in used when no model server is configured at all (resolve-provider.ts), and marked
 * as such wherever it answered (`demo`, runtime/demo-model-use.ts). It never pretends to be a real model:
 * every text answer starts with DEMO_PREFIX, and the answer is a pure function of the request (no clock,
 * no randomness), so workflows, tests and screenshots are reproducible.
 *
 * Tool use offline: if tools are offered and the last user message has a line `call:<toolName> <json-args>`
 * naming one of them, the demo returns that tool call; else, if it asks for what a built-in tool does (arithmetic,
 * the time, "remember …", demo-intents.ts), the call to that tool. After tool results it summarises them as text.
 *
 * In a multi-agent team (its role read from the system message) it answers as the planner, worker, reviewer or
 * summary writer (demo-roles.ts); a worker asks for tools by what its own step needs. Asked for structured output
 * (`responseFormat`), it fills the JSON Schema from the message (demo-structured.ts).
 */
import { createHash } from 'node:crypto';
import { teamRoleOf } from './team-roles';
import { demoImages, demoSpeech } from '../media/demo-media';
import type { ImageRequest, ImageResponse, SpeechRequest, SpeechResponse } from '../media/types';
import { demoIntent } from './demo-intents';
import { demoStructured } from './demo-structured';
import { DEMO_PROVIDER_NAME } from './genai-provider-name';
import { demoRoleAnswer, workerIntentText } from './demo-roles';
import type { ChatMessage, ChatRequest, ChatResponse, ChatToolCall, LlmProvider } from './types';

export const DEMO_PREFIX = '[PaiFlow demo model — offline, not a real LLM]';

function abortError(): Error {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  return err;
}

const sha8 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);
const clip = (s: string, n = 200) => {
  const t = s.trim().replace(/\s+/g, ' ');
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

export class DemoProvider implements LlmProvider {
  readonly id = 'demo';
  readonly label = 'PaiFlow demo model (offline, deterministic — not a real LLM)';
  readonly demo = true;

  async chat(req: ChatRequest): Promise<ChatResponse> {
    if (req.signal?.aborted) throw abortError();
    const msgs = req.messages;
    const inputChars = msgs.reduce(
      (n, m) =>
        n +
        (m.content?.length ?? 0) +
        (m.role === 'assistant' ? (m.toolCalls ?? []).reduce((k, t) => k + t.arguments.length, 0) : 0),
      0,
    );
    const model = req.model || 'demo';
    const base = { model, provider: this.id, providerName: DEMO_PROVIDER_NAME };
    const usage = (outChars: number) => ({
      inputTokens: Math.ceil(inputChars / 4),
      outputTokens: Math.ceil(outChars / 4),
      cachedTokens: 0,
      costUsd: 0, // the offline demo model is free
    });
    const fingerprint = sha8(JSON.stringify(msgs));

    const role = teamRoleOf(msgs.find((m) => m.role === 'system')?.content);
    const lastUser = [...msgs].reverse().find((m) => m.role === 'user')?.content ?? '';
    const call =
      role && role !== 'worker'
        ? undefined
        : findToolCall(req, fingerprint, role === 'worker' ? workerIntentText(lastUser) : undefined);
    if (call)
      return { ...base, text: '', toolCalls: [call], usage: usage(call.arguments.length), finishReason: 'tool_calls' };

    const echo = clip(lastUser);
    const words = lastUser.trim() ? lastUser.trim().split(/\s+/).length : 0;
    const toolResults = trailingToolResults(msgs);
    const lastUserImages = [...msgs].reverse().find((m) => m.role === 'user')?.images?.length ?? 0;

    let text: string;
    if (req.responseFormat) {
      // Structured output (classifier, extractor): the schema filled from the message, JSON only, no prefix.
      text = JSON.stringify(demoStructured(req.responseFormat.schema, lastUser));
    } else if (role && !(role === 'worker' && toolResults.length)) {
      text = demoRoleAnswer(role, msgs, DEMO_PREFIX);
    } else if (req.jsonMode) {
      text = JSON.stringify({
        demo: true,
        note: 'offline demo model, not a real LLM',
        echo,
        words,
        fingerprint,
        ...(lastUserImages ? { imagesSeen: lastUserImages } : {}),
        ...(toolResults.length
          ? { toolResults: toolResults.map((r) => ({ tool: r.name, result: clip(r.content) })) }
          : {}),
      });
    } else if (citedPassage(msgs)) {
      // Grounded (an LLM node with a knowledge context): quote the best passage with its citation, so the offline
      // RAG example answers from the documents, as a real model would be asked to.
      const p = citedPassage(msgs)!;
      text = `${DEMO_PREFIX} From ${p.title}: "${clip(p.sentence)}" ${p.citation}`;
    } else if (toolResults.length) {
      const summary = toolResults.map((r) => `${r.name} returned: ${clip(r.content)}`).join('; ');
      text = `${DEMO_PREFIX} Tool results — ${summary} (fingerprint ${fingerprint})`;
    } else {
      text = `${DEMO_PREFIX} You said: "${echo}" (${words} word${words === 1 ? '' : 's'}, fingerprint ${fingerprint})`;
    }
    // A conversation (a chat app's earlier turns before the prompt): show that they arrived.
    const userTurns = msgs.filter((m) => m.role === 'user');
    if (
      !role &&
      !req.jsonMode &&
      !req.responseFormat &&
      !toolResults.length &&
      userTurns.length > 1 &&
      msgs.some((m) => m.role === 'assistant')
    )
      text += ` Earlier you said: "${clip(userTurns[0].content)}".`;
    // Vision: the demo cannot see, but says how many images it was given.
    if (lastUserImages && !role && !req.jsonMode && !req.responseFormat)
      text += ` I saw ${lastUserImages} image${lastUserImages === 1 ? '' : 's'}.`;

    if (req.onToken) {
      // Word-by-word; the pieces join back to exactly `text`.
      for (const piece of text.split(/(?<=\s)(?=\S)/)) {
        if (req.signal?.aborted) throw abortError();
        req.onToken(piece);
      }
      if (req.signal?.aborted) throw abortError();
    }
    return { ...base, text, toolCalls: [], usage: usage(text.length), finishReason: 'stop' };
  }

  /** Real offline speech (espeak-ng, engine/media/demo-media.ts), always WAV. */
  speech(req: SpeechRequest): Promise<SpeechResponse> {
    return demoSpeech(req);
  }

  /** Deterministic pattern images, not pictures of the prompt. */
  images(req: ImageRequest): Promise<ImageResponse> {
    return demoImages(req);
  }
}

/** `intentText`: what the built-in tool intents read instead of the whole last message (a worker's own step). */
function findToolCall(req: ChatRequest, fingerprint: string, intentText?: string): ChatToolCall | undefined {
  const last = req.messages[req.messages.length - 1];
  if (!req.tools?.length || last?.role !== 'user') return undefined;
  const names = new Set(req.tools.map((t) => t.name));
  for (const line of last.content.split('\n')) {
    const m = /^\s*call:([\w.-]+)\s*(.*)$/.exec(line);
    if (!m || !names.has(m[1])) continue;
    const args = m[2].trim() || '{}';
    try {
      JSON.parse(args);
    } catch {
      continue; // not a valid call line; treat as plain text
    }
    return { id: `call_demo_${fingerprint}`, name: m[1], arguments: args };
  }
  const intent = demoIntent(intentText ?? last.content, names);
  return intent && { id: `call_demo_${fingerprint}`, name: intent.name, arguments: JSON.stringify(intent.args) };
}

/** Tool messages at the end of the conversation, with the tool name looked up from the assistant's calls. */
function trailingToolResults(msgs: ChatMessage[]): { name: string; content: string }[] {
  const out: { name: string; content: string }[] = [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m.role !== 'tool') break;
    const name =
      msgs.flatMap((x) => (x.role === 'assistant' ? (x.toolCalls ?? []) : [])).find((c) => c.id === m.toolCallId)
        ?.name ?? m.toolCallId;
    out.unshift({ name, content: m.content });
  }
  return out;
}

/**
 * The first passage of a grounded prompt's context — blocks `[n] Title (p. x)` + text after "Context:" in the system
 * message, as engine/knowledge/format-context.ts writes them — with its first sentence.
 */
function citedPassage(msgs: ChatMessage[]): { citation: string; title: string; sentence: string } | undefined {
  const system = msgs.find((m) => m.role === 'system')?.content ?? '';
  const at = system.lastIndexOf('Context:\n');
  if (at < 0) return undefined;
  const m = /^(\[\d+\]) ([^\n]+)\n([^\n]+)/.exec(system.slice(at + 'Context:\n'.length));
  if (!m) return undefined;
  const sentence = m[3].trim().split(/(?<=[.!?。！？])\s*/)[0];
  return { citation: m[1], title: m[2].replace(/ \(p\. \d+\)$/, ''), sentence };
}
