/** A pure node type for tests that keeps the CPU busy for about a millisecond: CPU-bound work with no I/O at all. */
import { z } from 'zod';
import { defineNode } from '@/engine/node-kit/define';

export const busyNode = defineNode<Record<string, never>>({
  type: 'busy',
  version: 1,
  label: 'Busy',
  category: 'data',
  description: 'test: ~1 ms of CPU',
  configSchema: z.object({}),
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  pure: true,
  async execute() {
    const until = performance.now() + 1;
    let spins = 0;
    while (performance.now() < until) spins++;
    return { output: { spins } };
  },
});
