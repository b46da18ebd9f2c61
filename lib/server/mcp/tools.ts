/**
 * Published workflows as MCP tools. A tool's name is the workflow's slug, its input schema the start node's inputs
 * (the same JSON Schema the endpoint's OpenAPI document carries, publishing/openapi.ts), its output schema the end
 * node's output names, and a call's result the run's outputs, as text JSON and as `structuredContent`.
 *
 * Names: MCP tool names are 1–128 characters among A–Z a–z 0–9 _ - . (spec 2025-11-25), and a slug is lower-case
 * letters and digits joined by single hyphens, at most 64 characters (publishing/publish.ts). A slug is therefore a
 * valid tool name as it is, and the mapping is the identity both ways: nothing to escape, nothing that could collide,
 * and the name a client calls is the slug it would use on /api/v1. A stored slug that broke the rule would be left out
 * of the list rather than renamed (a renamed tool could collide with another).
 *
 * Results: a failed run is a tool result with `isError` and the run's error, so the model sees why; a run that has
 * not ended when the sync timeout passes (or waits for human input) is one too, with the run id and its status URL.
 * Errors never carry `structuredContent` (it would not match the output schema); the run id is in `_meta`.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PaiError } from '@/engine/errors';
import type { RunRecord } from '@/engine/store/types';
import { outputNames, versionInputsSchema } from '../publishing/openapi';
import type { CallableWorkflow } from './callable-workflows';

const TOOL_NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

/** The tool name of a slug (see the header: the identity), or null if the slug is not a valid tool name. */
export function toolNameOf(slug: string): string | null {
  return TOOL_NAME_RE.test(slug) ? slug : null;
}

/** The slug a tool name stands for: the inverse of toolNameOf. */
export const slugOfTool = (name: string): string => name;

/** The tool a callable workflow is, or null when its slug cannot be a tool name. */
export function toolOf({ workflow, version }: CallableWorkflow): Tool | null {
  const name = toolNameOf(workflow.slug);
  if (!name) return null;
  return {
    name,
    title: workflow.name,
    description: workflow.description.trim() || workflow.name,
    inputSchema: { ...versionInputsSchema(version), type: 'object' },
    outputSchema: {
      type: 'object',
      properties: Object.fromEntries(outputNames(version).map((n) => [n, {}])),
      description: "The values mapped by the workflow's end node",
    },
  };
}

const runMeta = (run: RunRecord, statusUrl: string) => ({
  'paiflow/runId': run.id,
  'paiflow/status': run.status,
  'paiflow/statusUrl': statusUrl,
});

const textResult = (text: string, extra: Partial<CallToolResult> = {}): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...extra,
});

/** The result of a tool call whose run is `run` (as it is when the call stops waiting). */
export function resultOfRun(run: RunRecord, statusUrl: string): CallToolResult {
  const _meta = runMeta(run, statusUrl);
  if (run.status === 'succeeded') {
    const outputs = run.outputs ?? {};
    return textResult(JSON.stringify(outputs), { structuredContent: outputs, _meta });
  }
  if (TERMINAL.has(run.status)) {
    const why = run.error ? `: ${run.error.message}${run.error.code ? ` [${run.error.code}]` : ''}` : '';
    return textResult(`run ${run.id} ${run.status}${why}`, { isError: true, _meta });
  }
  const what = run.status === 'waiting' ? 'is waiting for human input' : `is still ${run.status}`;
  return textResult(
    `run ${run.id} ${what}; its outcome: GET ${statusUrl} with the same API key (Authorization: Bearer …)`,
    { isError: true, _meta },
  );
}

/** A call that could not start a run (invalid arguments, the concurrency cap): the error, for the model to act on. */
export function resultOfError(e: PaiError): CallToolResult {
  const problems = (e.details as { errors?: Array<{ message: string }> } | undefined)?.errors;
  const message = problems?.length ? problems.map((p) => p.message).join('; ') : e.message;
  return textResult(`${message} [${e.code}]`, { isError: true });
}
