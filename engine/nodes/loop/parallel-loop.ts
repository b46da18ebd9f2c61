/**
 * A list-mode loop with concurrency N > 1: the loop node runs its body itself, once per item, up to N items at a
 * time (types.ts LoopBody), and takes `done` once every item has finished, with the collected results in input
 * order whatever the order the items finished in.
 *
 * Finished items are the loop's checkpoint (NodeContext.checkpoint): each item's collected value, and the latest run
 * of each body node, saved as items finish. A retry of the loop, a resume after an item failed, a cancel or a
 * killed process therefore runs only the items that had not finished. When an item fails, no new item starts; the
 * ones running finish (and are kept), then the loop fails naming the item and the node. Saves are coalesced: while
 * one is being committed, the items finishing meanwhile go into the next one (each save holds every finished item, so
 * a loop of many items with large results writes more; the loop's results are in its snapshot anyway).
 *
 * The loop node is one node execution for all its items, so its timeout (data.timeoutMs, else NODE_TIMEOUT_MS)
 * bounds the whole loop; a timed-out loop keeps its finished items for its retry or a resume.
 */
import { z } from 'zod';
import { PaiError, type ErrorJson } from '../../errors';
import type { NodeContext, NodeResult } from '../../node-kit/define';
import type { NodeRunRecord } from '../../store/types';
import { resolveDeep } from '../../template/resolve';
import type { LoopNodeRun } from '../../node-kit/loop-body';

/** The loop config fields this needs (index.ts LoopConfig). */
export interface ParallelLoopConfig {
  collect: string;
  maxIterations: number;
  concurrency: number;
}

interface Progress {
  /** Finished items by index: the collected value (absent when nothing is collected). */
  done: Record<string, { value?: unknown }>;
  /** Per body node: its run in the highest item that ran it. */
  latest: Record<string, LoopNodeRun>;
}

const progressSchema = z.object({
  done: z.record(z.string(), z.object({ value: z.unknown().optional() })),
  latest: z.record(
    z.string(),
    z.object({ index: z.number().int(), record: z.custom<NodeRunRecord>((v) => !!v && typeof v === 'object') }),
  ),
});

/** Commits the progress after items finish, one save at a time, the items finishing meanwhile in the next save. */
class ProgressSaver {
  private running: Promise<void> | null = null;
  private dirty = false;
  failure: unknown;

  constructor(private readonly save: () => Promise<void>) {}

  mark(): void {
    this.dirty = true;
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty && this.failure === undefined) {
        this.dirty = false;
        await this.save();
      }
    } catch (e) {
      this.failure = e;
    } finally {
      this.running = null;
    }
  }

  /** Resolves once every marked change is stored; rejects with the save's error if one failed. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
    if (this.failure !== undefined) throw this.failure;
  }
}

/** What the body of item `index` sees as `{{<loop>.output}}` (earlier items' results are not known yet). */
const passOf = (index: number, item: unknown) => ({ index, item, results: [], count: 0, done: false });

export async function runItemsInParallel(ctx: NodeContext<ParallelLoopConfig>, items: unknown[]): Promise<NodeResult> {
  const c = ctx.config;
  const body = ctx.loopBody;
  if (!body)
    throw new PaiError(
      'LOOP_NEEDS_STATE_GRAPH',
      `loop "${ctx.nodeId}" runs its items in parallel (concurrency ${c.concurrency}), which only the state-graph ` +
        'engine can do',
    );
  if (body.problem) throw new PaiError(body.problem.code, body.problem.message, { details: body.problem.details });
  if (items.length > c.maxIterations)
    throw new PaiError(
      'LOOP_LIMIT',
      `loop "${ctx.nodeId}" has ${items.length} items; its limit is ${c.maxIterations} iterations (maxIterations)`,
    );
  // The loop's own config has `collect` resolved against the run, where the body has no values: per item it is
  // resolved against that item's scope instead.
  const collect = (ctx.rawConfig as ParallelLoopConfig).collect;

  const saved = progressSchema.safeParse((await ctx.checkpoint.load())?.state);
  const progress: Progress = saved.success ? (saved.data as Progress) : { done: {}, latest: {} };
  const saver = new ProgressSaver(() =>
    ctx.checkpoint.save({ done: { ...progress.done }, latest: { ...progress.latest } }),
  );
  const todo = items.map((_, i) => i).filter((i) => !Object.prototype.hasOwnProperty.call(progress.done, String(i)));

  const failures: Array<{ index: number; nodeId: string; error: ErrorJson; record?: NodeRunRecord }> = [];
  let thrown: unknown;
  let next = 0;
  const stopped = () =>
    failures.length > 0 || thrown !== undefined || saver.failure !== undefined || ctx.signal.aborted;
  const worker = async () => {
    while (next < todo.length && !stopped()) {
      const index = todo[next++];
      try {
        const out = await body.run(index, passOf(index, items[index]), ctx.signal);
        if (out.status === 'succeeded') {
          progress.done[index] = collect ? { value: resolveDeep(collect, out.scope) } : {};
          for (const [id, r] of Object.entries(out.ran))
            if (!progress.latest[id] || progress.latest[id].index <= index) progress.latest[id] = r;
          saver.mark();
        } else if (out.status === 'failed') {
          failures.push({ index, nodeId: out.nodeId, error: out.error, record: out.record });
        }
      } catch (e) {
        thrown ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(c.concurrency, todo.length) }, worker));
  await saver.idle(); // a StoreWriteError fails the loop (and the run, with the loop's own snapshot write)
  if (thrown !== undefined) throw thrown;
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new DOMException('aborted', 'AbortError');
  if (failures.length) {
    failures.sort((x, y) => x.index - y.index);
    const first = failures[0];
    if (first.record) body.restage([first.record]);
    const more = failures.length > 1 ? ` (${failures.length} items failed)` : '';
    throw new PaiError(
      first.error.code,
      `item ${first.index} of loop "${ctx.nodeId}" failed at node "${first.nodeId}": ${first.error.message}${more}`,
      {
        details: {
          item: first.index,
          nodeId: first.nodeId,
          failedItems: failures.map((f) => f.index),
          ...(first.error.details !== undefined ? { cause: first.error.details } : {}),
        },
      },
    );
  }

  // As on the sequential loop, a collected value that is empty (no collect, '', null, 0, false) is not kept.
  const results: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const v = progress.done[i]?.value;
    if (v) results.push(v);
  }
  body.complete(progress.latest, items.length);
  return {
    output: { index: items.length, item: null, results, count: results.length, done: true },
    branch: 'done',
  };
}
