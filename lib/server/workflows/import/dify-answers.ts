/**
 * A chatflow's Answer nodes. Dify streams each answer as the flow reaches it, and the user reads them one after
 * another in one reply; PaiFlow answers once, at the End. So the last answer of a path becomes the End node, and its
 * output `answer` is the earlier answers on the way to it followed by its own text; an answer with nodes after it is
 * a Template node holding its text. An answer inside an iteration or a loop is a Template node in the loop's body:
 * never an End (the body would end the run), its text collected by the loop once per item.
 */
import type { DifyContext, DifyNode } from './dify-context';
import { text, type Converted } from './dify-nodes';
import { t } from './report';
import { str } from './values';

/** Whether `n` is inside an iteration or a loop. */
export function inContainer(n: DifyNode): boolean {
  const d = n.data;
  return !!(n.parentId || d.iteration_id || d.loop_id || d.isInIteration === true || d.isInLoop === true);
}

/** The answers a path to `id` passes first (outside iterations and loops), the farthest first. */
export function answersBefore(c: DifyContext, id: string): string[] {
  const depth = new Map<string, number>();
  const queue: Array<[string, number]> = [[id, 0]];
  while (queue.length) {
    const [at, d] = queue.shift()!;
    for (const e of c.edges)
      if (e.target === at && (depth.get(e.source) ?? -1) < d + 1 && d < 500) {
        depth.set(e.source, d + 1);
        queue.push([e.source, d + 1]);
      }
  }
  return [...depth]
    .filter(([s]) => s !== id && c.typeOf(s) === 'answer' && !inContainer(c.nodes.get(s)!) && c.idOf.has(s))
    .sort((a, b) => b[1] - a[1])
    .map(([s]) => s);
}

export function answer(n: DifyNode, c: DifyContext, leads: boolean, shownByAnEnd: boolean): Converted {
  const value = text(c, n.data.answer);
  if (inContainer(n)) {
    c.add(n, 'template', { template: value, format: 'text' });
    return {
      outcome: 'approximated',
      why: [
        t(
          'A Template node in the loop body: Dify streams this answer once per item, PaiFlow collects its text in ' +
            "the loop's output.results when the iteration's output is this answer, and answers at the End.",
          '循环体中的模板节点：Dify 会为每一项流式输出这段回复，PaiFlow 在迭代输出为此回复时把文字收集到循环的 ' +
            'output.results，并在结束节点统一回复。',
        ),
      ],
    };
  }
  if (!leads) {
    const before = answersBefore(c, n.id).map((s) => `{{${c.idOf.get(s)}.output.text}}`);
    c.add(n, 'end', { outputs: [{ name: 'answer', value: before.join('') + value }] });
    return {
      outcome: 'mapped',
      why: [
        before.length
          ? t(
              'An End node whose output "answer" is the reply: the answers before it on the way here, then its own ' +
                'text, as Dify streams them one after another.',
              '结束节点，输出 answer 即回复：先是途经的前面各个回复，再是它自己的文字，与 Dify 依次流式输出的一致。',
            )
          : t('An End node whose output "answer" is the reply.', '结束节点，输出 answer 即回复内容。'),
      ],
    };
  }
  c.add(n, 'template', { template: value, format: 'text' });
  if (shownByAnEnd)
    return {
      outcome: 'mapped',
      why: [
        t(
          'A Template node with this part of the reply: the End node after it answers it first, then what follows.',
          '模板节点，保存这部分回复：其后的结束节点会先输出它，再输出后面的内容。',
        ),
      ],
    };
  return {
    outcome: 'approximated',
    why: [
      t(
        'A Template node with the reply: PaiFlow sends no reply before the run ends, and no End node after it ' +
          'outputs this text.',
        '改为模板节点：PaiFlow 不会在运行结束前发送回复，其后也没有结束节点输出这段文字。',
      ),
    ],
  };
}

/**
 * Answers some End node repeats (answersBefore of every last answer, and of every other node that ends a path with an
 * End node of its own: `endsWithAnswer`, e.g. an assigner of conversation variables, dify-assigner.ts).
 */
export function answersShown(
  c: DifyContext,
  leads: ReadonlySet<string>,
  endsWithAnswer: (n: DifyNode) => boolean,
): Set<string> {
  const shown = new Set<string>();
  const ends = (n: DifyNode) => str(n.data.type) === 'answer' || endsWithAnswer(n);
  for (const n of c.nodes.values())
    if (ends(n) && !leads.has(n.id) && !inContainer(n)) for (const s of answersBefore(c, n.id)) shown.add(s);
  return shown;
}
