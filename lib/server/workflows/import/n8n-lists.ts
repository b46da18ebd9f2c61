/**
 * n8n's Split Out (and Item Lists' "split out items") as a List operator over the field it splits. n8n runs the
 * nodes after it once per item; PaiFlow passes one value, so the nodes after it read the first item
 * (`output.first_record`) and the whole list is `output.result`: approximated, with the advice to put those nodes in
 * a Loop node over the list to process every item. Like n8n, a value that is not a list is split as a list of that
 * value (an object: of its values). Remove Duplicates, Sort and Limit right after it (in that order, each fed by the
 * one before only) act on the split items in n8n, so they are folded into the List operator's dedupe, sort and limit.
 * Splitting several fields at once, or a field named by an expression, stays unconverted (n8n.ts reports it with
 * SPLIT_WHY).
 */
import { parsePath } from '@/engine/template/resolve';
import type { N8nContext, N8nNode } from './n8n-context';
import type { N8nConverted } from './n8n-flow';
import { refOf } from './refs';
import { t, type Text } from './report';
import { dict, dicts, str } from './values';

export function splitOutNode(n: N8nNode, c: N8nContext, index: number): N8nConverted | undefined {
  const p = dict(n.parameters);
  if (n.type.endsWith('.itemLists') && str(p.operation, 'splitOutItems') !== 'splitOutItems') return undefined;
  const field = str(p.fieldToSplitOut).trim();
  const path = field && !field.startsWith('=') && !field.includes(',') ? parsePath(field) : null;
  if (!path) return undefined;
  const input = refOf(c.fieldPaths(c.inputSources(n.name), path));
  if (!input) return undefined;
  const dest = str(dict(p.options).destinationFieldName).trim();
  const include = str(p.include, 'noOtherFields');
  const config: Record<string, unknown> = { input, wrapSingle: true };
  fold(n, c, config);
  c.add(n, 'list_operator', config, index);
  const id = c.idOf.get(n.name)!;
  const last = path[path.length - 1];
  c.own.set(n.name, [{ kind: 'split', base: `${id}.output.first_record`, field: dest || String(last) }]);
  const why = [
    t(
      'A List operator over the field it splits (output.result); n8n runs the nodes after it once per item, PaiFlow ' +
        'once, on the first item (output.first_record): put them in a Loop node over output.result to process every ' +
        'item.',
      '遍历所拆分字段的列表操作节点（output.result）；n8n 对其后的节点按每个数据项各运行一次，PaiFlow 只运行一次，' +
        '作用于第一项（output.first_record）：请把这些节点放进遍历 output.result 的循环节点，以处理每一项。',
    ),
  ];
  if (include !== 'noOtherFields')
    why.push(
      t(
        "The input's other fields are not added to each item: read them from the node before it.",
        '输入中的其他字段不会加入每一项：请从其前一个节点读取。',
      ),
    );
  return { outcome: 'approximated', why };
}

const STAGES = ['removeDuplicates', 'sort', 'limit'];

/** Folds the Remove Duplicates, Sort and Limit nodes that follow `split` into its List operator `config`. */
function fold(split: N8nNode, c: N8nContext, config: Record<string, unknown>) {
  let at = split.name;
  let stage = 0;
  for (;;) {
    const next = c.links.filter((l) => l.from === at).map((l) => l.to);
    const n = next.length === 1 ? c.nodes.get(next[0]) : undefined;
    if (!n || n.disabled || c.predecessors(n.name).length !== 1) return;
    const kind = n.type.replace('n8n-nodes-base.', '');
    const s = STAGES.indexOf(kind);
    if (s < stage) return;
    const p = dict(n.parameters);
    let why: Text | undefined;
    if (kind === 'removeDuplicates') {
      const compare = str(p.compare, 'allFields');
      const fields = str(p.fieldsToCompare)
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
      if (compare === 'allFields') config.dedupe = {};
      else if (compare === 'selectedFields' && fields.length === 1 && parsePath(fields[0]))
        config.dedupe = { key: fields[0] };
      else return;
      why = t(
        'Folded into the Split Out before it: its List operator keeps the first of each item.',
        '已并入其前面的 Split Out：由其列表操作节点对每个相同项只保留第一项。',
      );
    } else if (kind === 'sort') {
      const fields = dicts(dict(p.sortFieldsUi).sortField);
      const f = fields[0];
      if (str(p.type, 'simple') !== 'simple' || fields.length !== 1 || !parsePath(str(f.fieldName))) return;
      config.sort = { key: str(f.fieldName), order: str(f.order) === 'descending' ? 'desc' : 'asc' };
      why = t(
        'Folded into the Split Out before it: its List operator sorts the items.',
        '已并入其前面的 Split Out：由其列表操作节点对各项排序。',
      );
    } else if (kind === 'limit') {
      const max = Number(p.maxItems ?? 1);
      if (!Number.isInteger(max) || max < 1) return;
      if (str(p.keep, 'firstItems') === 'firstItems') config.limit = max;
      else if (max === 1) config.take = 'last';
      else return;
      why = t(
        'Folded into the Split Out before it: its List operator keeps as many items.',
        '已并入其前面的 Split Out：由其列表操作节点保留同样数量的项。',
      );
    } else return;
    c.folded.set(n.name, why);
    c.passThrough.add(n.name);
    stage = s + 1;
    at = n.name;
  }
}

/** A node folded into the Split Out before it: nothing of its own, mapped. */
export function foldedNode(n: N8nNode, c: N8nContext): N8nConverted | undefined {
  const why = c.folded.get(n.name);
  return why ? { outcome: 'mapped', why: [why] } : undefined;
}
