/**
 * How a chat completion maps onto a workflow run.
 *
 * Messages → run inputs (the start node's declared inputs):
 *   - an input named `messages` receives the whole `messages` array as sent (as JSON text when it is declared a
 *     string);
 *   - the text of the LAST user message (a string, or its `{type:'text'}` parts joined by "\n") goes to the first
 *     declared input named `message`, `query`, `question`, `input`, `prompt`, `text` (in that order of preference),
 *     else to the first required string input, else to the first string input (never to `messages`), else nowhere;
 *   - any other required input is missing → 400 MISSING_INPUT (path `inputs.<name>`), as on the run endpoint.
 *
 * Run outputs → assistant content: the end output named `answer`, `text`, `output`, `content`, `reply` or `message`
 * (the first one present, i.e. neither null nor missing; non-strings as JSON), else the first string-valued output,
 * else JSON.stringify(outputs).
 */
import type { Graph } from '@/engine/graph/schema';
import { endConfigSchema } from '@/engine/nodes/end';
import type { StartConfig } from '@/engine/nodes/start';
import { findRefs } from '@/engine/template/resolve';
import type { ChatMessage } from './body';

export const MESSAGE_INPUT_NAMES = ['message', 'query', 'question', 'input', 'prompt', 'text'] as const;
export const CONTENT_OUTPUT_NAMES = ['answer', 'text', 'output', 'content', 'reply', 'message'] as const;

/** A message's text: the string, or its text parts joined by newlines (other parts, e.g. images, are ignored). */
export function messageText(m: Pick<ChatMessage, 'content'>): string {
  if (typeof m.content === 'string') return m.content;
  if (!Array.isArray(m.content)) return '';
  return m.content
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/** The run inputs for `messages` (see the top of this module). `raw` is the messages array exactly as sent. */
export function inputsFromMessages(
  decls: StartConfig['inputs'],
  messages: ChatMessage[],
  raw: unknown,
): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  const whole = decls.find((d) => d.name === 'messages');
  if (whole) inputs.messages = whole.type === 'string' ? JSON.stringify(raw) : raw;
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const candidates = decls.filter((d) => d.name !== 'messages');
  const target =
    MESSAGE_INPUT_NAMES.map((n) => candidates.find((d) => d.name === n)).find(Boolean) ??
    candidates.find((d) => d.type === 'string' && d.required) ??
    candidates.find((d) => d.type === 'string');
  if (target && lastUser) inputs[target.name] = messageText(lastUser);
  return inputs;
}

const present = (v: unknown) => v !== undefined && v !== null;

/** The assistant's content from the run's outputs (see the top of this module). */
export function contentFromOutputs(outputs: Record<string, unknown> | null | undefined): string {
  const o = outputs ?? {};
  const own = (k: string) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
  for (const name of CONTENT_OUTPUT_NAMES) {
    const v = own(name);
    if (present(v)) return typeof v === 'string' ? v : JSON.stringify(v);
  }
  const firstString = Object.values(o).find((v) => typeof v === 'string');
  return typeof firstString === 'string' ? firstString : JSON.stringify(o);
}

/**
 * The nodes whose live tokens make up the content: for each end node, the output the content will come from (by the
 * same name preference, else its first output) when its template is exactly `{{node.output.text}}` or a fallback chain
 * of those. Any other template (text around the reference, a whole object …) would not equal the joined tokens, so its
 * content is sent in one piece at the end.
 */
export function streamingSources(graph: Graph): string[] {
  const ids: string[] = [];
  for (const node of graph.nodes) {
    if (node.type !== 'end') continue;
    const cfg = endConfigSchema.safeParse(node.data?.config ?? {});
    if (!cfg.success || !cfg.data.outputs.length) continue;
    const outs = cfg.data.outputs;
    const chosen = CONTENT_OUTPUT_NAMES.map((n) => outs.find((o) => o.name === n)).find(Boolean) ?? outs[0];
    const refs = findRefs(chosen.value);
    if (refs.length !== 1 || refs[0].start !== 0 || refs[0].end !== chosen.value.length) continue;
    for (const alt of refs[0].alternatives) {
      const p = alt.path;
      if (
        p &&
        p.length === 3 &&
        p[0] !== 'inputs' &&
        p[1] === 'output' &&
        p[2] === 'text' &&
        typeof p[0] === 'string' &&
        !ids.includes(p[0])
      )
        ids.push(p[0]);
    }
  }
  return ids;
}
