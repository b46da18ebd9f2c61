/**
 * `$('Node')` of a node on another branch. n8n runs branches one after another (v1 execution order), so a node may
 * read a node that ran earlier on a sibling branch; PaiFlow's references read upstream nodes only. Where the node
 * read ran earlier in n8n's order and is not after the reader, an edge from it makes it upstream, and the reader
 * waits for it as n8n did.
 */
import { collectRefs } from '@/engine/template/resolve';
import type { N8nContext } from './n8n-context';
import { t } from './report';

function reachable(c: N8nContext, from: string): Set<string> {
  const seen = new Set<string>([from]);
  const stack = [from];
  while (stack.length)
    for (const e of c.g.outgoing(stack.pop()!))
      if (!seen.has(e.target)) {
        seen.add(e.target);
        stack.push(e.target);
      }
  return seen;
}

export function orderCrossBranchReads(c: N8nContext, order: readonly string[]): void {
  const rank = new Map(order.map((name, i) => [c.idOf.get(name), i]));
  const nameOf = new Map([...c.idOf].map(([name, id]) => [id, name]));
  const ids = new Set(c.g.allNodes().map((n) => n.id));
  for (const node of c.g.allNodes()) {
    const read = new Set(
      collectRefs(node.data.config, 'config')
        .flatMap((r) => r.ref.alternatives.map((a) => a.path?.[0]))
        .filter((root): root is string => typeof root === 'string' && ids.has(root) && root !== node.id),
    );
    for (const root of read) {
      if (reachable(c, root).has(node.id) || reachable(c, node.id).has(root)) continue;
      if ((rank.get(root) ?? Infinity) >= (rank.get(node.id) ?? -1)) continue;
      const source = c.g.node(root)!;
      // A branching node would send the edge down one branch only: leave those reported instead.
      if (source.type === 'condition') continue;
      c.g.addEdge(root, node.id);
      c.note(
        t(
          `It reads node "${root}", which n8n ran earlier on another branch: an edge from "${root}" makes it ` +
            'upstream, so this node waits for it, as in n8n.',
          `它读取节点“${root}”，该节点在 n8n 中先在另一分支上运行：PaiFlow 添加了从“${root}”出发的连线，使其成为上游，` +
            '本节点会等待它，与 n8n 一致。',
        ),
        nameOf.get(node.id) ?? node.id,
      );
    }
  }
}
