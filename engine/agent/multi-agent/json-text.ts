/**
 * Reading JSON out of a model's answer, leniently: models wrap it in a ```json fence, put a sentence before it or
 * after it. Tries the fenced blocks, then the whole text, then the first balanced `{…}` / `[…]` span. Never evaluates
 * anything; returns undefined when nothing parses.
 */

export function extractJson(text: string): unknown {
  const candidates: string[] = [];
  for (const m of text.matchAll(/```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g)) candidates.push(m[1]);
  candidates.push(text);
  for (const c of candidates) {
    const t = c.trim();
    if (!t) continue;
    const whole = tryParse(t);
    if (whole !== undefined) return whole;
    const span = balancedSpan(t);
    if (span !== undefined) {
      const inner = tryParse(span);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

const MAX_STARTS = 8;

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** The first `{…}` or `[…]` whose brackets balance, skipping brackets inside JSON strings. */
function balancedSpan(s: string): string | undefined {
  // A few starts are enough for a model's answer, and bound the work on a long text full of brackets.
  let tries = 0;
  for (let start = 0; start < s.length && tries < MAX_STARTS; start++) {
    const open = s[start];
    if (open !== '{' && open !== '[') continue;
    tries++;
    const stack: string[] = [];
    let inString = false;
    for (let i = start; i < s.length; i++) {
      const ch = s[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
      else if (ch === '}' || ch === ']') {
        if (stack.pop() !== ch) break;
        if (!stack.length) {
          const span = s.slice(start, i + 1);
          if (tryParse(span) !== undefined) return span;
          break;
        }
      }
    }
  }
  return undefined;
}
