/**
 * The one budget the rows of every evaluation in this process share (issue 43): at most `server` rows in flight at
 * once, and at most `perWorkspace` of one workspace's. An evaluation's `concurrency` is what it asks for; the budget is
 * what the server gives. A row beyond it waits. A slot that frees goes to the waiting evaluation served least recently
 * (round robin), skipping those whose workspace is at its cap: an evaluation started later is not held back until an
 * earlier one has run all its rows, and one workspace cannot take the whole server's budget.
 *
 * Counted in this process: rows run where their evaluation is driven (evaluation-runner.ts), so each app process keeps
 * its own budget.
 */

export interface RowBudgetLimits {
  /** Rows in flight at once in this process, across every evaluation and workspace. */
  server: number;
  /** Rows of one workspace in flight at once. */
  perWorkspace: number;
}

interface Waiter {
  evaluationId: string;
  workspaceId: string;
  grant: (release: () => void) => void;
}

export class RowBudget {
  private inFlight = 0;
  private readonly byWorkspace = new Map<string, number>();
  /** Rows waiting, by evaluation (in the order the evaluations first waited). */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Per evaluation with rows waiting or in flight: its rows in flight, and when it was last served. */
  private readonly evaluations = new Map<string, { running: number; servedAt: number }>();
  private grants = 0;

  constructor(readonly limits: RowBudgetLimits) {}

  /** Rows in flight now (in all, or of one workspace). */
  running(workspaceId?: string): number {
    return workspaceId === undefined ? this.inFlight : (this.byWorkspace.get(workspaceId) ?? 0);
  }

  /**
   * Resolves with the slot's release once the row may run. A row whose `signal` aborts while it waits gives up its
   * place and rejects with the signal's reason.
   */
  acquire(workspaceId: string, evaluationId: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const queue = this.waiting.get(evaluationId);
        const at = queue?.indexOf(waiter) ?? -1;
        if (queue && at >= 0) {
          queue.splice(at, 1);
          if (!queue.length) this.waiting.delete(evaluationId);
        }
        this.forget(evaluationId);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        evaluationId,
        workspaceId,
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.waiting.get(evaluationId);
      if (queue) queue.push(waiter);
      else this.waiting.set(evaluationId, [waiter]);
      if (!this.evaluations.has(evaluationId)) this.evaluations.set(evaluationId, { running: 0, servedAt: -1 });
      this.grantWhatFits();
    });
  }

  private grantWhatFits(): void {
    while (this.inFlight < this.limits.server) {
      let next: Waiter[] | undefined;
      let servedAt = Infinity;
      for (const [id, queue] of this.waiting) {
        const at = this.evaluations.get(id)!.servedAt;
        if (at < servedAt && this.running(queue[0].workspaceId) < this.limits.perWorkspace)
          [next, servedAt] = [queue, at];
      }
      if (!next) return;
      const waiter = next.shift()!;
      if (!next.length) this.waiting.delete(waiter.evaluationId);
      this.take(waiter);
    }
  }

  private take(waiter: Waiter): void {
    const { evaluationId, workspaceId } = waiter;
    const ev = this.evaluations.get(evaluationId)!;
    ev.running++;
    ev.servedAt = this.grants++;
    this.inFlight++;
    this.byWorkspace.set(workspaceId, this.running(workspaceId) + 1);
    let released = false;
    waiter.grant(() => {
      if (released) return;
      released = true;
      ev.running--;
      this.forget(evaluationId);
      this.inFlight--;
      const n = this.running(workspaceId) - 1;
      if (n > 0) this.byWorkspace.set(workspaceId, n);
      else this.byWorkspace.delete(workspaceId);
      this.grantWhatFits();
    });
  }

  /** Drops what is kept of an evaluation with no row waiting or in flight. */
  private forget(evaluationId: string): void {
    if (!this.waiting.has(evaluationId) && !this.evaluations.get(evaluationId)?.running)
      this.evaluations.delete(evaluationId);
  }
}
