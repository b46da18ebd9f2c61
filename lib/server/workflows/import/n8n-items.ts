/**
 * n8n's item-list nodes. n8n passes lists of items and these nodes reshape the list; PaiFlow passes one value, so
 * where the workflow handles one item at a time (a webhook call, a chat message) they come out as: Filter a
 * Condition node whose "true" branch goes on (an item that fails stops there, as in n8n); Limit, Sort and Remove
 * Duplicates nothing at all (on one item they change nothing); Aggregate a JSON Template node that puts the item's
 * fields in lists. Splitting a list into items (Split Out, Split In Batches, Item Lists' split) needs a Loop node
 * around the nodes that follow, which the importer does not build: Split Out becomes a List operator whose first
 * item goes on (n8n-lists.ts), Split In Batches is reported with that advice.
 */
import type { N8nContext, N8nNode } from './n8n-context';
import { always, filterConditions, oddWhy, type N8nConverted } from './n8n-flow';
import { refOf, safeKey } from './refs';
import { t } from './report';
import { dict, dicts, str } from './values';

export function filterNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const { conds, logic, odd } = filterConditions(c, dict(n.parameters).conditions, 'conditions');
  c.add(
    n,
    'condition',
    { branches: [{ id: 'true', label: 'kept', logic, conditions: conds.length ? conds : [always()] }] },
    index,
  );
  c.passThrough.add(n.name);
  return {
    outcome: odd.length ? 'approximated' : 'mapped',
    why: [
      t(
        'A Condition node: an item that passes goes on by its "true" branch, one that fails stops there, as n8n ' +
          'drops it.',
        '条件节点：通过的数据项沿 true 分支继续，不通过的在此停止，与 n8n 丢弃它一致。',
      ),
      ...oddWhy(odd),
    ],
    handles: new Map([[0, ['true']]]),
  };
}

/** Aggregate: the fields it collects, each as a list (of the one item PaiFlow passes). */
export function aggregateNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  const sources = c.inputSources(n.name);
  const doc: Record<string, unknown> = {};
  if (str(p.aggregate) === 'aggregateAllItemData')
    doc[safeKey(str(p.destinationFieldName, 'data'))] = [refOf(c.fieldPaths(sources, []))];
  else
    for (const f of dicts(dict(p.fieldsToAggregate).fieldToAggregate)) {
      const field = str(f.fieldToAggregate);
      const name = f.renameField ? str(f.outputFieldName, field) : field;
      doc[safeKey(name)] = [refOf(c.fieldPaths(sources, field.split('.')))];
    }
  c.add(n, 'template', { template: JSON.stringify(doc, null, 2), format: 'json' }, index);
  c.own.set(n.name, [{ kind: 'json', base: `${c.idOf.get(n.name)}.output.json` }]);
  return {
    outcome: 'approximated',
    why: [
      t(
        'A Template node (JSON) that puts the fields in lists (output.json): PaiFlow passes one item, so each list ' +
          "holds that item's value, where n8n collects every item's.",
        '模板节点（JSON），把字段放进列表（output.json）：PaiFlow 传递单个数据项，因此每个列表只有该项的值，而 n8n 会收集所有数据项的值。',
      ),
    ],
  };
}

/** Limit, Sort, Remove Duplicates: on the one item PaiFlow passes they change nothing. */
export function unchangedOnOneItem(n: N8nNode, c: N8nContext): N8nConverted {
  c.passThrough.add(n.name);
  return {
    outcome: 'mapped',
    why: [
      t(
        `On one item ${n.type.split('.').pop()} changes nothing, and PaiFlow passes one item: it was left out and ` +
          'its neighbours joined.',
        `${n.type.split('.').pop()} 对单个数据项不做改变，而 PaiFlow 传递单个数据项：已省略并把前后节点相连。`,
      ),
    ],
  };
}

/** The legacy Item Lists node, by operation. */
export function itemListsNode(n: N8nNode, c: N8nContext, index: number): N8nConverted | undefined {
  const op = str(dict(n.parameters).operation, 'splitOutItems');
  if (['limit', 'sort', 'removeDuplicates'].includes(op)) return unchangedOnOneItem(n, c);
  if (op === 'aggregateItems') return aggregateNode(n, c, index);
  return undefined;
}

/** Why a node that splits a list into items was left out. */
export const SPLIT_WHY = t(
  'n8n splits the list into items here and runs the nodes after it once per item; PaiFlow passes one value: put ' +
    'those nodes in a Loop node over the list (list mode) to do the same.',
  'n8n 在此把列表拆成多个数据项，并对每一项运行其后的节点；PaiFlow 传递单个值：请把这些节点放进遍历该列表的循环节点（列表模式）。',
);
