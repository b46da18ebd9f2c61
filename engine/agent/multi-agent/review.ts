/**
 * The reviewer's verdict on one step: a JSON object `{ "approved": boolean, "feedback": string }`, read leniently
 * (in a ```json fence, with text around it, `approved` as "yes"/"true"/"no"/"false"). An answer without such an
 * object is not a verdict: the caller asks once more, then counts it as a rejection whose feedback says so.
 */
import { extractJson } from './json-text';

export interface ReviewVerdict {
  approved: boolean;
  feedback: string;
}

const TRUE = new Set(['true', 'yes', 'approved', 'approve', 'ok', 'pass']);
const FALSE = new Set(['false', 'no', 'rejected', 'reject', 'fail']);

function boolOf(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (TRUE.has(t)) return true;
    if (FALSE.has(t)) return false;
  }
  return undefined;
}

export function parseReview(text: string): ReviewVerdict | undefined {
  const json = extractJson(text);
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  const approved = boolOf(o.approved ?? o.approve);
  if (approved === undefined) return undefined;
  const fb = o.feedback ?? o.comments ?? o.reason;
  const feedback = typeof fb === 'string' ? fb.trim() : fb === undefined || fb === null ? '' : JSON.stringify(fb);
  return { approved, feedback };
}
