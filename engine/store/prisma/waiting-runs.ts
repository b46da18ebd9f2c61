/**
 * Runs paused for a person (status `waiting`) in a set of workspaces, newest first, each with what it waits on: the
 * node named by its last `run.waiting` event (a human-input node, an agent's tool call waiting for approval, or a
 * breakpoint of an editor test run), that node's label and type from the run's own graph, and a short detail (the
 * human-input prompt, or the tool's name). Only these few fields are read: a breakpoint's prompt holds the node's
 * whole input, which a list has no use for. Every query names the workspaces, through the run's workflow.
 */
import { DETAIL_CHARS, type WaitingKind, type WaitingRunRow } from '../analytics';
import type { SqlTx } from './migrator';

const ISO = (col: string) => `to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The waiting runs of the workspaces in `$1` (a JSON array of ids). */
const WAITING = `r.status = 'waiting' AND w.workspace_id IN (SELECT jsonb_array_elements_text($1::jsonb))`;

export async function listWaitingRuns(
  sql: SqlTx,
  q: { workspaceIds: string[]; workflowId?: string; limit: number },
): Promise<{ rows: WaitingRunRow[]; total: number }> {
  if (!q.workspaceIds.length) return { rows: [], total: 0 };
  const params: unknown[] = [JSON.stringify(q.workspaceIds)];
  const where = q.workflowId === undefined ? WAITING : `${WAITING} AND r.workflow_id = $${params.push(q.workflowId)}`;
  const [count] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM runs r JOIN workflows w ON w.id = r.workflow_id WHERE ${where}`,
    params,
  );
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT r.id, r.workflow_id, w.name AS workflow_name, w.workspace_id, ${ISO('r.created_at')} AS created_at,
            ${ISO('e.ts')} AS waiting_since, e.data->>'nodeId' AS node_id,
            CASE WHEN jsonb_typeof(e.data->'prompt') = 'object' THEN e.data->'prompt'->>'kind' END AS prompt_kind,
            CASE WHEN jsonb_typeof(e.data->'prompt') = 'string' THEN left(e.data->>'prompt', ${DETAIL_CHARS}) END
              AS prompt_text,
            CASE WHEN jsonb_typeof(e.data->'prompt') = 'object' THEN left(e.data->'prompt'->>'name', ${DETAIL_CHARS})
              END AS tool_name,
            g.node->'data'->>'label' AS node_label, g.node->>'type' AS node_type
       FROM runs r
       JOIN workflows w ON w.id = r.workflow_id
       LEFT JOIN LATERAL (
         SELECT ev.ts, ev.data FROM run_events ev
          WHERE ev.run_id = r.id AND ev.type = 'run.waiting'
          ORDER BY ev.seq DESC LIMIT 1
       ) e ON true
       LEFT JOIN LATERAL (
         SELECT n AS node
           FROM jsonb_array_elements(CASE WHEN jsonb_typeof(r.graph->'nodes') = 'array'
                                          THEN r.graph->'nodes' ELSE '[]'::jsonb END) n
          WHERE n->>'id' = e.data->>'nodeId'
          LIMIT 1
       ) g ON true
      WHERE ${where}
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT $${params.push(q.limit)}::int`,
    params,
  );
  return { rows: rows.map(rowOf), total: count?.n ?? 0 };
}

function kindOf(r: Record<string, unknown>): WaitingKind {
  if (r.prompt_kind === 'breakpoint') return 'breakpoint';
  if (r.prompt_kind === 'tool_approval') return 'tool_approval';
  if (r.node_type === 'human_input') return 'human_input';
  return 'other';
}

function rowOf(r: Record<string, unknown>): WaitingRunRow {
  const kind = kindOf(r);
  const nodeId = (r.node_id as string | null) ?? null;
  return {
    id: r.id as string,
    workflowId: r.workflow_id as string,
    workflowName: r.workflow_name as string,
    workspaceId: r.workspace_id as string,
    createdAt: r.created_at as string,
    waitingSince: (r.waiting_since as string | null) ?? null,
    kind,
    node: nodeId
      ? { id: nodeId, label: (r.node_label as string | null) ?? null, type: (r.node_type as string | null) ?? null }
      : null,
    detail:
      kind === 'human_input'
        ? ((r.prompt_text as string | null) ?? null)
        : kind === 'tool_approval'
          ? ((r.tool_name as string | null) ?? null)
          : null,
  };
}
