/**
 * The node commit statement (prisma-store.ts `commit`): a run's staged node snapshots upserted and its events
 * appended in one statement — one round trip, atomic — optionally with the run's terminal status folded in.
 */
const NODE_COLS =
  'run_id text, node_id text, type text, status text, attempt int, ' +
  `input jsonb, output jsonb, error jsonb, usage jsonb,
  started_at timestamp(3), finished_at timestamp(3), duration_ms int`;
const NODE_NAMES =
  'run_id, node_id, type, status, attempt, input, output, error, usage, started_at, finished_at, duration_ms';
const NODE_UPDATES = `type = EXCLUDED.type, status = EXCLUDED.status, attempt = EXCLUDED.attempt,
       input = EXCLUDED.input, output = EXCLUDED.output, error = EXCLUDED.error, usage = EXCLUDED.usage,
       started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at, duration_ms = EXCLUDED.duration_ms`;
const EVENT_COLS =
  'run_id text, seq int, ts timestamp(3), type text, node_id text, span_id text, parent_span_id text, data jsonb';

/**
 * Node checkpoints (agent rounds, plan steps) upserted in the same statement; the parameter after the run patch's
 * (or $3). Only in the statements of commits that carry checkpoints: the per-node hot path is unchanged.
 */
const checkpointCte = (param: number) => `, c AS (
     INSERT INTO node_checkpoints (run_id, node_key, state, input_hash, answer, updated_at)
     SELECT * FROM jsonb_to_recordset($${param}::jsonb) AS z(run_id text, node_key text, state jsonb, input_hash text,
       answer jsonb, updated_at timestamp(3))
     ON CONFLICT (run_id, node_key) DO UPDATE SET state = EXCLUDED.state, input_hash = EXCLUDED.input_hash,
       answer = EXCLUDED.answer, updated_at = EXCLUDED.updated_at
     RETURNING 1
   )`;

/** The per-node commit: node snapshots upserted and events appended in one statement (one round trip, atomic). */
const commitSql = (withRun: boolean, asynchronous = false, withCheckpoints = false) => `WITH n AS (
     INSERT INTO node_runs (${NODE_NAMES})
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${NODE_COLS})
     ON CONFLICT (run_id, node_id) DO UPDATE SET ${NODE_UPDATES}
     RETURNING 1
   ), e AS (
     INSERT INTO run_events (run_id, seq, ts, type, node_id, span_id, parent_span_id, data)
     SELECT * FROM jsonb_to_recordset($2::jsonb) AS y(${EVENT_COLS})
     RETURNING 1
   )${
     withRun
       ? `, r AS (
     UPDATE runs SET status = COALESCE($3::text, status),
       outputs = CASE WHEN $4::boolean THEN $5::jsonb ELSE outputs END,
       error = CASE WHEN $6::boolean THEN $7::jsonb ELSE error END,
       finished_at = CASE WHEN $8::boolean THEN $9::timestamp(3) ELSE finished_at END
     WHERE id = $10
     RETURNING 1
   )`
       : ''
   }${withCheckpoints ? checkpointCte(withRun ? 11 : 3) : ''}
   SELECT (SELECT count(*) FROM n) + (SELECT count(*) FROM e)${withRun ? ' + (SELECT count(*) FROM r)' : ''}${
     withCheckpoints ? ' + (SELECT count(*) FROM c)' : ''
   }${asynchronous ? `, set_config('synchronous_commit', 'off', true)` : ''}`;
export const COMMIT_SQL = commitSql(false);
export const COMMIT_WITH_RUN_SQL = commitSql(true);
/**
 * PostgreSQL: a node snapshot's commit is an asynchronous commit — `set_config(…, true)` lasts for the statement's
 * own transaction. See docs/architecture.md "Durability of node snapshots"; SNAPSHOT_SYNC_COMMIT=1 keeps every
 * commit synchronous.
 */
export const COMMIT_ASYNC_SQL = commitSql(false, true);
/** The same three statements for commits that carry node checkpoints (always synchronous: they guard effects). */
export const COMMIT_CHECKPOINT_SQL = commitSql(false, false, true);
export const COMMIT_WITH_RUN_CHECKPOINT_SQL = commitSql(true, false, true);
/** Run patches that can ride in the commit statement. */
export const FOLDABLE = new Set(['status', 'outputs', 'error', 'finishedAt']);
