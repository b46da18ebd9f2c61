/**
 * Dify's question classifier as PaiFlow's Question classifier node (engine/nodes/question_classifier, once it is
 * registered): the same classes, each its own branch, the model, the query and the instruction; `class_name` is its
 * output.class_name. Dify always picks one of its classes, so PaiFlow's "other" branch leads where the first class
 * does. Without that node type the classifier stays an LLM node and a Condition node (dify-branching.ts).
 */
import { createDefaultRegistry } from '@/engine/nodes/registry';
import type { Handles } from './dify-branching';
import type { DifyContext, DifyNode } from './dify-context';
import { modelSettings, refTo, text, type Converted } from './dify-nodes';
import { t } from './report';
import { dicts, str } from './values';

/** Whether PaiFlow has the node type (it lands from another branch; the import follows what is registered). */
export const HAS_CLASSIFIER = createDefaultRegistry().has('question_classifier');

const CLASS_ID = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

export function questionClassifierNode(n: DifyNode, c: DifyContext, handles: Handles): Converted {
  const id = c.idOf.get(n.id)!;
  const model = modelSettings(n.data.model);
  const classes = dicts(n.data.classes).map((k, i) => {
    const source = str(k.id);
    const own = CLASS_ID.test(source) && source !== 'other' ? source : `class${i + 1}`;
    return { source, id: own, name: str(k.name).trim() || `class ${i + 1}` };
  });
  const unique = classes.map((k, i) =>
    classes.findIndex((x) => x.id === k.id) === i ? k : { ...k, id: `class${i + 1}` },
  );
  c.add(n, 'question_classifier', {
    model: model.config.model,
    ...('temperature' in model.config ? { temperature: model.config.temperature } : {}),
    query: refTo(c, n.data.query_variable_selector) || '{{inputs.query}}',
    classes: unique.map(({ id: cid, name }) => ({ id: cid, name })),
    instruction: text(c, n.data.instruction),
  });
  handles.set(
    n.id,
    new Map(
      unique.map((k, i) => [
        k.source,
        [{ node: id, handle: k.id }, ...(i === 0 ? [{ node: id, handle: 'other' }] : [])],
      ]),
    ),
  );
  c.outputs.set(n.id, (variable) => (variable === 'class_name' ? `${id}.output.class_name` : undefined));
  return {
    outcome: 'mapped',
    why: [
      t(
        'A Question classifier node with the same classes, each its own branch, and the same query and instruction; ' +
          '"other" leads where the first class does, as Dify always picks a class. class_name is output.class_name.',
        '问题分类节点，类别、查询和指令相同，每个类别一个分支；“other”分支与第一个类别相同，因为 Dify 总会选出一个类别。' +
          'class_name 对应 output.class_name。',
      ),
      model.why,
    ],
  };
}
