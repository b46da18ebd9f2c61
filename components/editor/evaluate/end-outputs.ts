/** The End outputs of the graph being edited, in node order, each name once: the fields a scorer may read. */
import type { FlowNode } from '../graph-model';

export function endOutputs(nodes: readonly FlowNode[]): string[] {
  const names: string[] = [];
  for (const n of nodes) {
    if (n.type !== 'end') continue;
    const outputs = (n.data.config as { outputs?: unknown } | undefined)?.outputs;
    if (!Array.isArray(outputs)) continue;
    for (const o of outputs) {
      const name = (o as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}
