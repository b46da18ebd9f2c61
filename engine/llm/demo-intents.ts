/**
 * What the offline demo model reads as a request for one of the built-in tools, so that agents can be tried without
 * an API key: arithmetic → `calculator`, the time or date → `current_time`, "remember …" → `memory_save`, "what do
 * you remember about …" → `memory_recall`, in English and Chinese. Plain rules, no model: the same text always asks
 * for the same call, and a tool that is not offered is never asked for.
 */

export interface DemoIntent {
  name: string;
  args: Record<string, unknown>;
}

/** Digits and operators with at least one operator between two operands, e.g. "12 * (3 + 4)". */
const ARITHMETIC = /[-(]*\d+(?:\.\d+)?(?:\s*[-+*/%^]\s*[-(]*\d+(?:\.\d+)?\)*)+\)*/;
const TIME =
  /\b(what time|the time|current time|time is it|today'?s date|what day|what date)\b|几点|时间|日期|今天几号|星期几/i;
const REMEMBER = /(?:^|[.!?。！？]\s*)(?:please\s+)?remember(?:\s+that)?\s+(.+)|(?:请)?记住[：:，,\s]*(.+)/i;
const RECALL =
  /\b(?:do you remember|what do you (?:know|remember) about|recall)\s+(.+)|(?:你)?还记得(.+)|回忆一下?(.+)/i;

const trimEnd = (s: string) =>
  s
    .trim()
    .replace(/[?？.。!！]+$/, '')
    .trim();

function balanced(expr: string): string {
  let depth = 0;
  let out = '';
  for (const ch of expr) {
    if (ch === '(') depth++;
    if (ch === ')') {
      if (depth === 0) continue;
      depth--;
    }
    out += ch;
  }
  return out + ')'.repeat(depth);
}

export function demoIntent(text: string, offered: ReadonlySet<string>): DemoIntent | undefined {
  if (offered.has('memory_recall')) {
    const m = RECALL.exec(text);
    const query = m && trimEnd(m[1] ?? m[2] ?? m[3] ?? '');
    if (query) return { name: 'memory_recall', args: { query } };
  }
  if (offered.has('memory_save')) {
    const m = REMEMBER.exec(text);
    const content = m && trimEnd(m[1] ?? m[2] ?? '');
    if (content) return { name: 'memory_save', args: { content } };
  }
  if (offered.has('calculator')) {
    const m = ARITHMETIC.exec(text);
    if (m) return { name: 'calculator', args: { expression: balanced(m[0].trim()) } };
  }
  if (offered.has('current_time') && TIME.test(text)) return { name: 'current_time', args: {} };
  return undefined;
}
