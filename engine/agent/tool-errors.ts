/**
 * Tool failures never crash the agent: each is classified and handed back to the model as text, with a stable
 * prefix it (and people reading traces) can rely on: `policy denied: …`, `tool failed: …`, `tool timed out: …`.
 */
import { PaiError } from '../errors';

/** A refusal by policy (allowlist, loop guard, SSRF guard) rather than a malfunction. */
export class ToolPolicyError extends Error {
  constructor(
    message: string,
    readonly reason = 'policy',
  ) {
    super(message);
    this.name = 'ToolPolicyError';
  }
}

export class ToolTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolTimeoutError';
  }
}

export type ToolOutcomeKind = 'ok' | 'denied' | 'failed' | 'timeout';

/** PaiError codes from the platform's own guards that mean "not allowed" rather than "broken". */
const POLICY_CODES = new Set(['SSRF_BLOCKED', 'TOO_MANY_REDIRECTS']);

/** `code`: the guard's own code (SSRF_BLOCKED …), for the trace; the model reads only the text. */
export function classifyToolError(err: unknown): {
  kind: Exclude<ToolOutcomeKind, 'ok'>;
  text: string;
  code?: string;
} {
  const msg = err instanceof Error ? err.message : String(err);
  if (err instanceof ToolPolicyError) return { kind: 'denied', text: `policy denied: ${msg}` };
  if (err instanceof PaiError && POLICY_CODES.has(err.code))
    return { kind: 'denied', text: `policy denied: ${msg}`, code: err.code };
  if (err instanceof ToolTimeoutError) return { kind: 'timeout', text: `tool timed out: ${msg}` };
  if (err instanceof Error && err.name === 'TimeoutError') return { kind: 'timeout', text: `tool timed out: ${msg}` };
  return { kind: 'failed', text: `tool failed: ${msg || 'unknown error'}` };
}
