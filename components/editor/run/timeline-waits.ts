/**
 * The run's waits for the timeline: `run.waiting` … `run.started { resumed }` is a WAIT bar (a root), told who
 * answered by the resume's `answeredNodeId` or by the `tool.approval` of the tool call it waited on.
 */
import { tr } from '@/components/lib/i18n';
import type { TraceEvent } from '@/components/api/types';
import { type Data, str } from './timeline-event-data';
import type { SpanTree } from './timeline-tree';

export class RunWaits {
  private openWaits: string[] = [];
  /** Tool call id → the wait bar for its approval. */
  private waitByCall = new Map<string, string>();

  constructor(private readonly tree: SpanTree) {}

  /** `run.waiting`: opens a wait bar for an answer or a tool approval. */
  waiting(e: TraceEvent, t: number, d: Data): void {
    const nodeId = str(d.nodeId) ?? e.nodeId;
    const prompt = d.prompt as Data | string | undefined;
    const approval = prompt && typeof prompt === 'object' && prompt.kind === 'tool_approval' ? prompt : undefined;
    const name = approval
      ? tr('run.model.approvalOf', { tool: str(approval.name) ?? tr('run.model.aToolCall') })
      : tr('run.model.answerFor', { node: nodeId ?? tr('run.model.theRun') });
    const details: Array<[string, string]> = [];
    if (typeof prompt === 'string' && prompt) details.push(['prompt', prompt]);
    const bar = this.tree.add({
      id: `wait:${e.seq}`,
      parentId: null,
      kind: 'wait',
      name,
      nodeId,
      status: 'waiting',
      start: t,
      end: null,
      details,
      children: [],
      seq: e.seq,
    });
    this.openWaits.push(bar.id);
    if (approval && str(approval.callId)) this.waitByCall.set(String(approval.callId), bar.id);
  }

  /** `run.started { resumed }`: every open wait ends here. */
  resumed(t: number, d: Data): void {
    for (const id of this.openWaits) {
      const w = this.tree.bars.get(id)!;
      w.end = Math.max(t, w.start);
      w.status = 'succeeded';
      if (str(d.answeredNodeId)) w.details.push(['answered node', String(d.answeredNodeId)]);
    }
    this.openWaits = [];
  }

  /** A tool call was approved, edited or rejected: the wait for it records who answered (`answer`). */
  answered(toolCallId: string | undefined, answer: string): void {
    const waitId = (toolCallId && this.waitByCall.get(toolCallId)) || undefined;
    const wait = waitId ? this.tree.bars.get(waitId) : undefined;
    if (wait) wait.details.push(['answered by', answer]);
  }

  /** The run ended: no wait stays open. */
  runEnded(): void {
    this.openWaits = [];
  }
}
