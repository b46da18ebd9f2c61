/**
 * Node types for the queue tests, loaded into the worker processes through PAIFLOW_EXTRA_NODES (and registered in
 * the test's own app so it can validate graphs). Behaviour comes from the node's config, so it is the same in every
 * process: `sleepMs`, `gateFile` (wait until that file exists), `hang` (wait until aborted). Each execution appends
 * `<runId>:<nodeId>` to PROBE_COUNTER_FILE, and `<runId>:<nodeId>:aborted` when the run's signal aborts it.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { z } from 'zod';
import { defineNode, type NodeDefinition } from '../../../engine/node-kit/define';

function abortError() {
  return Object.assign(new Error('aborted'), { name: 'AbortError' });
}

export const queueProbeNode = defineNode<{ value?: string; sleepMs?: number; gateFile?: string; hang?: boolean }>({
  type: 'qprobe',
  version: 1,
  label: 'Queue probe (test)',
  category: 'data',
  description: 'test node for queue mode',
  configSchema: z.object({
    value: z.string().optional(),
    sleepMs: z.number().int().min(0).optional(),
    gateFile: z.string().optional(),
    hang: z.boolean().optional(),
  }),
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  async execute(ctx) {
    const file = process.env.PROBE_COUNTER_FILE;
    if (file) appendFileSync(file, `${ctx.runId}:${ctx.nodeId}\n`);
    const onAbort = () => {
      if (file) appendFileSync(file, `${ctx.runId}:${ctx.nodeId}:aborted\n`);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      ctx.emit('node.progress', { step: 'begin', pid: process.pid });
      const wait = (ms: number) =>
        new Promise<void>((resolve, reject) => {
          if (ctx.signal.aborted) return reject(abortError());
          const t = setTimeout(() => {
            ctx.signal.removeEventListener('abort', stop);
            resolve();
          }, ms);
          const stop = () => {
            clearTimeout(t);
            reject(abortError());
          };
          ctx.signal.addEventListener('abort', stop, { once: true });
        });
      if (ctx.config.sleepMs) await wait(ctx.config.sleepMs);
      if (ctx.config.gateFile) while (!existsSync(ctx.config.gateFile)) await wait(20);
      if (ctx.config.hang) for (;;) await wait(60_000);
      return { output: { value: ctx.config.value ?? ctx.nodeId, pid: process.pid } };
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  },
});

export const nodes: NodeDefinition[] = [queueProbeNode];
