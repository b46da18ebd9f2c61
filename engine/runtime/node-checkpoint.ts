/**
 * NodeContext.checkpoint (engine/node-kit/define.ts NodeCheckpoint) over the run's journal: a save is staged with the
 * node's trace events so far and committed at once (durable before save() returns); a load prefers what this
 * execution staged and not yet committed, then the store. A checkpoint belongs to the resolved config it was made
 * for (by hash): a node asked to do something else (its inputs changed before a resume) starts afresh.
 */
import { createHash } from 'node:crypto';
import type { NodeCheckpoint } from '../node-kit/define';
import type { RunJournal } from './run-journal';

export interface NodeCheckpointHandle {
  handle: NodeCheckpoint;
  /** Stage the checkpoint's removal with the node's success (only when this execution found or made one). */
  dropIfUsed(): void;
}

function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
    .join(',')}}`;
}

export function nodeCheckpoint(journal: RunJournal, nodeKey: string, config: unknown): NodeCheckpointHandle {
  let used = false;
  let hash: string | undefined;
  const inputHash = () => (hash ??= createHash('sha256').update(stableJson(config)).digest('hex'));
  const handle: NodeCheckpoint = {
    async load<T>() {
      const rec = await journal.loadCheckpoint(nodeKey);
      if (!rec || (rec.state == null && rec.answer == null)) return undefined;
      used = true;
      if (rec.inputHash && rec.inputHash !== inputHash()) return undefined;
      return { state: rec.state as T, ...(rec.answer != null ? { answer: rec.answer } : {}) };
    },
    async save(state) {
      used = true;
      journal.stageCheckpoint({
        nodeKey,
        state: state ?? null,
        inputHash: inputHash(),
        answer: null,
        updatedAt: new Date().toISOString(),
      });
      await journal.flush();
    },
  };
  return {
    handle,
    dropIfUsed() {
      if (!used) return;
      journal.stageCheckpoint({
        nodeKey,
        state: null,
        inputHash: null,
        answer: null,
        updatedAt: new Date().toISOString(),
      });
    },
  };
}
