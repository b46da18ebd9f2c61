/**
 * How the agent's texts are cut down for trace events and tool messages: a clip says how much it left out, and tool
 * arguments are shown parsed when they are JSON. Shared by the ReAct loop (run-agent.ts) and its tool batches.
 */

/** Characters of a text a trace event carries (tool results; twice that for model text, four times for args). */
export const PREVIEW = 1000;

export const clip = (s: string, n: number) =>
  s.length > n ? `${s.slice(0, n)}… [${s.length - n} more characters]` : s;

/** Args for trace events: parsed when possible, clipped either way. */
export function argsPreview(raw: string): unknown {
  if (raw.length > PREVIEW * 4) return clip(raw, PREVIEW * 4);
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
