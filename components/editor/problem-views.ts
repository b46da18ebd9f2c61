/**
 * Validation problems as the editor shows them: each placed on its node, edge and field (from its JSON path), and
 * grouped per node for the node cards, keeping a node's previous array when its problems did not change so its
 * card does not re-render.
 */
import type { Problem } from '@/components/api/types';
import { tr } from '@/components/lib/i18n';
import type { ProblemView } from './editor-state';
import type { FlowEdge } from './graph-model';

/** `nodeIds` / `edgeIds` are the graph's ids in the order it was validated in (paths use indexes). */
export function toProblemViews(
  problems: Problem[],
  nodeIds: string[],
  edgeIds: string[],
  edges: FlowEdge[],
): ProblemView[] {
  return problems.map((p, i) => {
    const v: ProblemView = { ...p, message: problemMessage(p), key: `${i}:${p.code}:${p.path}` };
    const mNode = /^nodes\[(\d+)\](?:\.(.*))?$/.exec(p.path);
    const mEdge = /^edges\[(\d+)\](?:\.(.*))?$/.exec(p.path);
    if (mNode) {
      v.nodeId = nodeIds[Number(mNode[1])];
      v.field = mNode[2] ?? '';
    } else if (mEdge) {
      v.edgeId = edgeIds[Number(mEdge[1])];
      const edge = edges.find((e) => e.id === v.edgeId);
      v.nodeId = edge ? (p.path.endsWith('.target') ? edge.target : edge.source) : undefined;
    } else if (p.nodeIds?.length) {
      v.nodeId = p.nodeIds[0];
    }
    if (!v.nodeId && p.nodeIds?.length) v.nodeId = p.nodeIds[0];
    return v;
  });
}

/**
 * The problem's message in the UI's language where the editor has its own words for it (an unknown key, with the
 * key it was probably meant to be; a path that reaches no End node); else the server's message.
 */
export function problemMessage(p: Problem, translate: typeof tr = tr): string {
  if (p.code === 'UNKNOWN_KEY' && p.details?.key) {
    const { key, suggestion } = p.details;
    return suggestion
      ? translate('editor.problems.unknownKeySuggestion', { key, suggestion })
      : translate('editor.problems.unknownKey', { key });
  }
  if (p.code === 'NO_END_ON_PATH') {
    const branch = p.details?.branch;
    return branch ? translate('editor.problems.noEndOnBranch', { branch }) : translate('editor.problems.noEndOnPath');
  }
  return p.message;
}

export function problemsByNode(views: ProblemView[], prev: Map<string, ProblemView[]>): Map<string, ProblemView[]> {
  const byNode = new Map<string, ProblemView[]>();
  for (const v of views) {
    const ids = new Set([v.nodeId, ...(v.code === 'GRAPH_CYCLE' ? (v.nodeIds ?? []) : [])].filter(Boolean) as string[]);
    for (const id of ids) byNode.set(id, [...(byNode.get(id) ?? []), v]);
  }
  // Keep the previous array when a node's problems did not change, so its card does not re-render.
  const sig = (l: ProblemView[]) => l.map((p) => `${p.code}|${p.path}|${p.message}`).join('\n');
  for (const [id, list] of byNode) {
    const old = prev.get(id);
    if (old && sig(old) === sig(list)) byNode.set(id, old);
  }
  return byNode;
}
