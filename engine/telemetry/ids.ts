/**
 * OpenTelemetry ids from ours: the trace id is derived from the run id (every execution of a run — first start,
 * resumes, answers — lands in one trace), span ids are our 16-hex span ids as they are, so parents match without a
 * lookup. Anything else (a legacy `run` span id, an event that shares its node's span) gets a stable derived id.
 */
import { createHash } from 'node:crypto';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const SPAN_ID = /^[0-9a-f]{16}$/;
const INVALID = '0000000000000000';

/** 32 hex: the first 16 bytes of sha256(runId). */
export function traceIdOf(runId: string): string {
  return sha256(runId).slice(0, 32);
}

/** Our span id when it is a valid OTel span id (16 hex, not all zeros), else one derived from it. */
export function otelSpanId(runId: string, spanId: string): string {
  return SPAN_ID.test(spanId) && spanId !== INVALID ? spanId : derivedSpanId(runId, `span:${spanId}`);
}

/** A stable span id for something that has no span id of its own (e.g. `seq:42`). */
export function derivedSpanId(runId: string, what: string): string {
  const id = sha256(`${runId}#${what}`).slice(0, 16);
  return id === INVALID ? '0000000000000001' : id;
}
