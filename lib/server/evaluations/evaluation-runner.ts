/**
 * Drives evaluations (issue 36): each row is an ordinary run of the evaluated version — trigger `evaluation`, so it
 * shows in /runs — started up to `concurrency` at a time, waited for, scored, and stored before the row counts as
 * done.
 *
 * Durable the way runs are: a row's run is started with an idempotency key that names the row
 * (`evaluation:<id>:<index>`), and its id is stored before the wait, so after a crash the process that takes the
 * evaluation over (at start-up, or when the driver's heartbeat goes stale on PostgreSQL) finds every scored row done,
 * waits for — or resumes, when it was interrupted — every row whose run exists, and starts only the rows that never
 * had one. No finished row is run again.
 *
 * Rows of every evaluation in this process share one budget (./row-budget.ts): `concurrency` is how many rows an
 * evaluation asks to run at once; a row beyond the server's or its workspace's budget waits for a slot, served in turn
 * across evaluations.
 *
 * Cancelling marks the evaluation cancelled, cancels the runs of the rows in flight (in-flight model calls are
 * aborted) and leaves the rows not started as cancelled.
 */
import { randomUUID } from 'node:crypto';
import { defaultSettings } from '@/engine/config/settings';
import { scorerSchema, type ScorerSpec } from '@/engine/evaluation/scorers';
import type { Graph } from '@/engine/graph/schema';
import type { EvaluationRecord, EvaluationRowRecord } from '@/engine/store/evaluations';
import type { RunRecord } from '@/engine/store/types';
import type { App, AppEvaluations } from '../app-types';
import { waitForRunToSettle } from '../runs/run-waiter';
import { RowBudget, type RowBudgetLimits } from './row-budget';
import { scoreRow, unrunnableRow } from './score-row';

/** How long one row's run may take before its row fails. */
const ROW_MAX_MS = 60 * 60_000;
const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

export interface EvaluationRunnerOptions {
  /** How often a driver renews its claim. */
  heartbeatMs?: number;
  /** A claim older than this is an orphan another process may take over (PostgreSQL). */
  staleMs?: number;
  /** The budget of rows in flight (default: EVALUATION_ROWS_IN_FLIGHT and …_PER_WORKSPACE's defaults). */
  rowsInFlight?: RowBudgetLimits;
}

type StopReason = 'cancelled' | 'lost' | 'closing';

interface Driver {
  stop: (reason: StopReason) => void;
  done: Promise<void>;
}

export const rowIdempotencyKey = (evaluationId: string, index: number) => `evaluation:${evaluationId}:${index}`;

export class EvaluationRunner implements AppEvaluations {
  private readonly ownerId = `evdriver_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  private readonly drivers = new Map<string, Driver>();
  private readonly heartbeatMs: number;
  private readonly staleMs: number;
  /** Shared by the rows of every evaluation this process drives. */
  readonly budget: RowBudget;
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(
    private readonly app: App,
    o: EvaluationRunnerOptions = {},
  ) {
    this.heartbeatMs = o.heartbeatMs ?? 5_000;
    this.staleMs = o.staleMs ?? 30_000;
    const d = defaultSettings();
    this.budget = new RowBudget(
      o.rowsInFlight ?? {
        server: d.EVALUATION_ROWS_IN_FLIGHT,
        perWorkspace: d.EVALUATION_ROWS_IN_FLIGHT_PER_WORKSPACE,
      },
    );
  }

  /**
   * Drives the evaluation in this process, unless this process drives it already. `claimStaleBefore`: a claim renewed
   * before this is taken over (default: one older than `staleMs`).
   */
  drive(ev: Pick<EvaluationRecord, 'id' | 'workspaceId'>, claimStaleBefore?: Date): void {
    if (this.closed || this.drivers.has(ev.id)) return;
    const ctl = new AbortController();
    const driver: Driver = {
      stop: (reason) => ctl.abort(reason),
      done: this.run(ev.workspaceId, ev.id, ctl, claimStaleBefore)
        .catch((e) => console.error('[paiflow] evaluation driver stopped', ev.id, (e as Error)?.message ?? e))
        .finally(() => this.drivers.delete(ev.id)),
    };
    this.drivers.set(ev.id, driver);
  }

  /**
   * Takes over the evaluations no process drives: at start-up every active one on the embedded database (one process
   * holds its data dir, so every claim in it is a dead process's, however young: it is taken over at once), and on
   * PostgreSQL those whose driver stopped renewing its claim — now and every `staleMs`, so a claim still young at
   * start-up (a quick restart) is taken over once it goes stale.
   */
  async resumeOrphans(opts: { everyActive: boolean; periodic: boolean }): Promise<void> {
    const sweep = async (everyActive: boolean) => {
      const before = everyActive ? new Date(Date.now() + 1000) : new Date(Date.now() - this.staleMs);
      for (const o of await this.app.stores.evaluations.orphans(before)) this.drive(o, before);
    };
    // A store that cannot answer (one not migrated yet, a database away) does not stop the app from starting.
    await sweep(opts.everyActive).catch((e) =>
      console.error('[paiflow] evaluations to resume could not be read:', (e as Error)?.message ?? e),
    );
    if (opts.periodic && !this.sweeper) {
      this.sweeper = setInterval(() => void sweep(false).catch(() => {}), this.staleMs);
      this.sweeper.unref?.();
    }
  }

  /** Cancels an active evaluation; false when it had ended already. */
  async cancel(ev: EvaluationRecord): Promise<boolean> {
    const cancelled = await this.app.stores.evaluations.finish(ev.id, 'cancelled', {
      code: 'EVALUATION_CANCELLED',
      message: 'the evaluation was cancelled',
    });
    if (!cancelled) return false;
    const local = this.drivers.get(ev.id);
    if (local) {
      local.stop('cancelled');
      await local.done;
    }
    // Rows still in flight (driven by another process, which stops at its next heartbeat): their runs stop now.
    for (const row of await this.app.stores.evaluations.rows(ev.id))
      if (row.status === 'running') await this.cancelRow(ev.id, row.index, row.runId);
    return true;
  }

  /** The evaluation once it has ended (or as it is when `timeoutMs` passes). */
  async settled(ev: Pick<EvaluationRecord, 'id' | 'workspaceId'>, timeoutMs: number): Promise<EvaluationRecord> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const local = this.drivers.get(ev.id);
      if (local)
        await Promise.race([local.done, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())))]);
      const now = await this.app.stores.evaluations.get(ev.workspaceId, ev.id);
      if (!now || !['queued', 'running'].includes(now.status) || Date.now() >= deadline) return now!;
      if (!this.drivers.has(ev.id)) await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Stops driving (the evaluations stay active: the next start-up, or another process, takes them over). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    const all = [...this.drivers.values()];
    for (const d of all) d.stop('closing');
    await Promise.all(all.map((d) => d.done));
  }

  private async run(workspaceId: string, id: string, ctl: AbortController, staleBefore?: Date): Promise<void> {
    const store = this.app.stores.evaluations;
    if (!(await store.claim(id, this.ownerId, staleBefore ?? new Date(Date.now() - this.staleMs)))) return;
    const ev = await store.get(workspaceId, id);
    if (!ev) return;
    const beat = setInterval(() => {
      store
        .heartbeat(id, this.ownerId)
        .then(async (ours) => {
          if (ours) return;
          const now = await store.get(workspaceId, id);
          ctl.abort(now?.status === 'cancelled' ? 'cancelled' : 'lost');
        })
        .catch(() => {});
    }, this.heartbeatMs);
    beat.unref?.();
    try {
      const specs = ev.scorers.map((s) => scorerSchema.parse(s));
      const graph = await this.graphOf(ev);
      // Rows whose run exists first (they were in flight when the last driver stopped), then the rest in order.
      const todo = (await store.rows(id))
        .filter((r) => r.status === 'pending' || r.status === 'running')
        .sort((a, b) => Number(b.status === 'running') - Number(a.status === 'running') || a.index - b.index);
      const lanes = Array.from({ length: Math.min(ev.concurrency, todo.length) }, async () => {
        for (let row = todo.shift(); row && !ctl.signal.aborted; row = todo.shift()) {
          // Stopped while waiting for a slot: the row was not started (it stays pending, or is cancelled).
          const release = await this.budget.acquire(ev.workspaceId, ev.id, ctl.signal).catch(() => null);
          if (!release) return;
          try {
            await this.runRow(ev, graph, specs, row, ctl.signal);
          } finally {
            release();
          }
        }
      });
      await Promise.all(lanes);
      if (!ctl.signal.aborted) await store.finish(id, 'succeeded');
    } catch (e) {
      if (ctl.signal.aborted) return;
      // The other lanes stop starting rows; their runs in flight end on their own.
      ctl.abort('lost');
      const err = e as { code?: string; message?: string };
      await store.finish(id, 'failed', {
        code: err.code ?? 'EVALUATION_FAILED',
        message: err.message ?? String(e),
      });
    } finally {
      clearInterval(beat);
    }
  }

  private async graphOf(ev: EvaluationRecord): Promise<Graph> {
    if (ev.graph) return ev.graph;
    const version = ev.versionId ? await this.app.store.getVersion(ev.versionId) : null;
    if (!version)
      throw Object.assign(new Error(`version ${ev.version} of the workflow no longer exists`), {
        code: 'VERSION_NOT_FOUND',
      });
    return version.graph;
  }

  private async runRow(
    ev: EvaluationRecord,
    graph: Graph,
    specs: ScorerSpec[],
    row: EvaluationRowRecord,
    signal: AbortSignal,
  ): Promise<void> {
    const store = this.app.stores.evaluations;
    let run: RunRecord | null = row.runId ? await this.app.store.getRun(row.runId) : null;
    try {
      if (!run) {
        ({ run } = await this.app.runs.start({
          workflow: { id: ev.workflowId, engine: ev.engine },
          versionId: ev.versionId,
          graph,
          inputs: row.inputs,
          engine: ev.engine,
          idempotencyKey: rowIdempotencyKey(ev.id, row.index),
          trigger: { kind: 'evaluation', id: ev.id },
        }));
        await store.setRowRun(ev.id, row.index, run.id);
      }
    } catch (e) {
      const err = e as { code?: string; message?: string };
      if (!err.code) throw e;
      await store.finishRow(ev.id, row.index, unrunnableRow(specs, { code: err.code, message: err.message ?? '' }));
      return;
    }
    // A run interrupted by a crash resumes from its failed node; what succeeded in it is not run again.
    for (let resumes = 0; ; resumes++) {
      if (run.status === 'interrupted' && resumes < 3) run = await this.app.runs.resume(run.id);
      const ended = await waitForRunToSettle(this.app, run.id, { timeoutMs: ROW_MAX_MS, signal });
      if (signal.aborted) {
        if (signal.reason === 'cancelled') await this.cancelRow(ev.id, row.index, run.id);
        return;
      }
      if (!ended) {
        await store.finishRow(ev.id, row.index, unrunnableRow(specs, { code: 'RUN_NOT_FOUND', message: 'deleted' }));
        return;
      }
      if (ended.status === 'interrupted' && resumes < 3) {
        run = ended;
        continue;
      }
      if (!ENDED.has(ended.status)) {
        // Waiting for a person, or over the time limit: an evaluation needs runs that finish on their own.
        await this.app.runs.cancel(ended.id).catch(() => {});
        const message =
          ended.status === 'waiting'
            ? 'the run waits for a person (human input or approval); evaluations need runs that finish unattended'
            : `the run did not finish within ${ROW_MAX_MS / 60_000} minutes`;
        await store.finishRow(ev.id, row.index, unrunnableRow(specs, { code: 'RUN_NOT_UNATTENDED', message }, message));
        return;
      }
      await store.finishRow(ev.id, row.index, await scoreRow(this.app, specs, row, ended, signal));
      return;
    }
  }

  private async cancelRow(id: string, index: number, runId: string | null): Promise<void> {
    if (runId) await this.app.runs.cancel(runId).catch(() => {});
    await this.app.stores.evaluations.finishRow(id, index, {
      status: 'cancelled',
      outputs: null,
      scores: null,
      error: { code: 'EVALUATION_CANCELLED', message: 'the evaluation was cancelled' },
      durationMs: null,
      costUsd: null,
    });
  }
}
