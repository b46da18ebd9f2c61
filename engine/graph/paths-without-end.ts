/**
 * Where a path of a workflow ends without an End node: a node other than an End that no edge leaves, or a branch of a
 * branching node (a condition's case, a loop's `body` or `done`) that no edge leaves from. What such a path produces
 * is in no output, and a run that takes it and no other reaches no End node: the run fails with NO_END_REACHED
 * (runtime/scheduler-core.ts) instead of passing for a success with no outputs. Validation reports each place as a
 * warning (NO_END_ON_PATH) with its node's JSON path, so the editor and an import report show it before a run does. A
 * warning, not an error: a branch that only has effects (a notification) may end where it is, once its author knows.
 */
import type { Graph } from './schema';
import type { Problem } from '../validation/problem';
import type { Topology } from './topology';

/** What this check needs of the node types (validate.ts's NodeTypes is one). */
export interface BranchingTypes {
  has(type: string): boolean;
  get(
    type: string,
    version?: number,
  ): {
    configSchema: { safeParse(v: unknown): { success: boolean; data?: unknown } };
    outputsFor?(config: unknown): Array<{ id: string }>;
  };
  capabilitiesOf(node: { type: string; data?: { version?: number } }): { terminal?: boolean };
}

export const NO_END_ON_PATH = 'NO_END_ON_PATH';

/** Every place among `reached` (the nodes a run can reach) where a path ends without an End node. */
export function pathsWithoutEnd(
  graph: Graph,
  types: BranchingTypes,
  t: Topology,
  reached: ReadonlySet<string>,
): Problem[] {
  const warnings: Problem[] = [];
  graph.nodes.forEach((n, i) => {
    if (!reached.has(n.id) || !types.has(n.type) || types.capabilitiesOf(n).terminal) return;
    const name = n.data.label ? `"${n.data.label}" (${n.id})` : `"${n.id}"`;
    const out = t.outgoing.get(n.id) ?? [];
    if (out.length === 0) {
      warnings.push({
        code: NO_END_ON_PATH,
        message:
          `${name} leads to no End node: a run that ends here has no outputs (NO_END_REACHED); ` +
          'connect it to an End node',
        path: `nodes[${i}]`,
        nodeIds: [n.id],
      });
      return;
    }
    let def;
    try {
      def = types.get(n.type, n.data.version);
    } catch {
      return; // an unknown version is an error of its own
    }
    const parsed = def.outputsFor ? def.configSchema.safeParse(n.data.config ?? {}) : undefined;
    if (!def.outputsFor || !parsed?.success) return;
    for (const branch of def.outputsFor(parsed.data)) {
      if (out.some((e) => e.sourceHandle === branch.id)) continue;
      warnings.push({
        code: NO_END_ON_PATH,
        message:
          `branch "${branch.id}" of ${name} leads nowhere: a run that takes it reaches no End node and has no ` +
          'outputs (NO_END_REACHED); connect it to an End node',
        path: `nodes[${i}]`,
        nodeIds: [n.id],
        details: { branch: branch.id },
      });
    }
  });
  return warnings;
}
