/**
 * Repeated work on one node, told apart for the timeline:
 * - a node that gets `node.started` again after its previous pass succeeded is on a loop: each pass is an ITERATION
 *   (a succeeded node is never executed again for the same run, except by a resume `fromNodeId`, which is a re-run);
 *   so is one that starts again with an `iteration` while its previous pass runs (a loop with concurrency > 1);
 * - `node.progress { retry }` inside a node span splits it into ATTEMPT bars, the next one starting after the backoff.
 */
import { tr } from '@/components/lib/i18n';
import type { TraceEvent } from '@/components/api/types';
import { type Data, errorText, num, str } from './timeline-event-data';
import type { SpanTree } from './timeline-tree';
import type { TimelineBar } from './timeline-types';

export type RetryData = { attempt?: unknown; nextInMs?: unknown; error?: unknown };

export class NodePasses {
  /** Node id → its passes' bar ids, in order (loop iterations and re-runs). */
  private passes = new Map<string, string[]>();
  /** Node id → its currently open attempt bar (after a retry). */
  private openAttempt = new Map<string, string>();
  /** Bumped by a resume `fromNodeId` (which re-runs succeeded nodes); a pass remembers the value it saw. */
  private rerunEpoch = 0;
  private passEpoch = new Map<string, number>();

  constructor(private readonly tree: SpanTree) {}

  /** The bar of the node's current pass, if it has run. */
  current(nodeId: string | undefined): string | undefined {
    const passes = nodeId ? this.passes.get(nodeId) : undefined;
    return passes?.[passes.length - 1];
  }

  /** A resume from a node re-runs succeeded nodes: their next pass is a re-run, not a loop iteration. */
  rerun(): void {
    this.rerunEpoch++;
  }

  /** A bar closed: when it is the node's own (not an attempt), the node's open attempt ends with it. */
  closed(bar: TimelineBar): void {
    if (bar.nodeId && this.openAttempt.get(bar.nodeId) && bar.kind !== 'attempt') this.openAttempt.delete(bar.nodeId);
  }

  /** The run ended: no attempt stays open. */
  runEnded(): void {
    this.openAttempt.clear();
  }

  /** `node.started`: a new pass of the node — its first, a loop iteration or a re-run. */
  started(e: TraceEvent, t: number, d: Data): void {
    if (!e.nodeId) return;
    const passes = this.passes.get(e.nodeId) ?? [];
    const prev = passes.length ? this.tree.bars.get(passes[passes.length - 1]) : undefined;
    const attempt = num(d.attempt);
    const bar: TimelineBar = {
      id: e.spanId,
      parentId: null,
      kind: 'node',
      name: e.nodeId,
      nodeId: e.nodeId,
      nodeType: str(d.type),
      status: 'running',
      start: t,
      end: null,
      attempt,
      details: [],
      children: [],
      seq: e.seq,
    };
    if (prev) {
      // A loop running items in parallel starts a pass (its `iteration`) while the previous one still runs.
      const concurrent = prev.status === 'running' && typeof d.iteration === 'number';
      const rerun = !concurrent && (prev.status !== 'succeeded' || this.passEpoch.get(e.nodeId) !== this.rerunEpoch);
      if (rerun) {
        bar.details.push([
          'pass',
          tr(prev.status === 'waiting' ? 'run.model.continuedAfterWait' : 'run.model.rerunByResume'),
        ]);
      } else {
        // A loop pass: the first pass becomes iteration 1, retroactively.
        const iterations = passes.map((id) => this.tree.bars.get(id)!).filter((b) => b.kind === 'iteration');
        if (!iterations.length && prev.kind === 'node') {
          prev.kind = 'iteration';
          prev.iteration = 1;
          iterations.push(prev);
        }
        bar.kind = 'iteration';
        bar.iteration = concurrent ? Number(d.iteration) + 1 : (iterations[iterations.length - 1]?.iteration ?? 0) + 1;
      }
    }
    passes.push(bar.id);
    this.passes.set(e.nodeId, passes);
    this.passEpoch.set(e.nodeId, this.rerunEpoch);
    this.openAttempt.delete(e.nodeId);
    this.tree.add(bar, e.parentSpanId);
  }

  /**
   * `node.progress { retry }` on the bar of node `nodeId`: the failed attempt ends, the next one opens after the
   * backoff.
   */
  retry(bar: TimelineBar, nodeId: string, e: TraceEvent, t: number, retry: RetryData): void {
    const failed = num(retry.attempt) ?? 1;
    const nextIn = num(retry.nextInMs) ?? 0;
    const openId = this.openAttempt.get(nodeId);
    const open = openId ? this.tree.bars.get(openId) : undefined;
    const error = errorText(retry.error);
    if (open) {
      open.end = Math.max(t, open.start);
      open.status = 'failed';
      open.error = error;
    } else {
      this.tree.add(
        {
          id: `${bar.id}#attempt-${failed}`,
          parentId: null,
          kind: 'attempt',
          name: tr('run.model.attempt', { n: failed }),
          nodeId,
          status: 'failed',
          start: bar.start,
          end: t,
          attempt: failed,
          error,
          details: [],
          children: [],
          seq: e.seq,
        },
        bar.id,
      );
    }
    const next = this.tree.add(
      {
        id: `${bar.id}#attempt-${failed + 1}`,
        parentId: null,
        kind: 'attempt',
        name: tr('run.model.attempt', { n: failed + 1 }),
        nodeId,
        status: 'running',
        start: t + nextIn,
        end: null,
        attempt: failed + 1,
        details: [['backoff', tr('run.model.backoff', { ms: nextIn, n: failed })]],
        children: [],
        seq: e.seq,
      },
      bar.id,
    );
    this.openAttempt.set(nodeId, next.id);
    bar.attempt = failed + 1;
  }
}
