/**
 * A path that went on only through dropped nodes ended there in the source (a Gmail node that sent the result, a
 * tool that answered): in PaiFlow it would end nowhere, and a run taking it would succeed with no outputs. Each such
 * path gets an End node that returns what reached its last node, and the report says so on the dropped node.
 */
import type { GraphBuilder } from './graph-builder';
import { t, type ReportBuilder } from './report';

const MAIN_FIELD: Record<string, string> = { llm: 'text', agent: 'text', template: 'text', http: 'body' };

/** What a PaiFlow node hands on: the main field of its output (an LLM's text, an HTTP response's body) or all of it. */
export function mainOutput(g: GraphBuilder, nodeId: string): string {
  const field = MAIN_FIELD[g.node(nodeId)?.type ?? ''];
  return `{{${nodeId}.output${field ? `.${field}` : ''}}}`;
}

export function closeLostEnds(
  g: GraphBuilder,
  report: ReportBuilder,
  /** The report id of a dropped PaiFlow node id (its source node's id). */
  sourceIdOf: (nodeId: string) => string | undefined,
  /** The reference to what a node hands on (`{{id.output.text}}`). */
  outputOf: (nodeId: string) => string,
): string[] {
  const ends: string[] = [];
  for (const lost of g.lostEnds()) {
    const last = g.node(lost.source);
    // A path through nodes left out because they do nothing (n8n's NoOp, a disabled node) ended just the same.
    if (!last || !lost.via.some((id) => report.get(sourceIdOf(id) ?? '')?.outcome === 'dropped')) continue;
    const end = g.newId(`end_after_${lost.source}`, 'end');
    g.addNode({
      id: end,
      type: 'end',
      position: { x: last.position.x + 300, y: last.position.y + 120 },
      data: {
        label: `End (after ${last.data.label})`.slice(0, 200),
        config: { outputs: [{ name: 'result', value: outputOf(last.id) }] },
      },
    });
    g.addEdge(last.id, end, lost.sourceHandle);
    ends.push(end);
    const dropped = lost.via.map(sourceIdOf).filter((id): id is string => !!id);
    const where = dropped.at(-1);
    if (where)
      report.note(
        where,
        t(
          `The path ended here; without this node it ends at "${last.id}", so PaiFlow added End node "${end}" ` +
            `that returns what reached "${last.id}" (a run taking this path answers that instead of this node's ` +
            'effect).',
          `该路径原本在此结束；舍弃此节点后它停在“${last.id}”，因此 PaiFlow 添加了结束节点“${end}”，返回到达` +
            `“${last.id}”的内容（走这条路径的运行将返回它，而不是此节点的效果）。`,
        ),
      );
  }
  return ends;
}
