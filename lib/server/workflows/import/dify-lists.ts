/**
 * Dify's data nodes that PaiFlow has as nodes of their own: variable-aggregator (and the old DSL's
 * variable-assigner, which meant the same) as a Variable aggregator, list-operator as a List operator, and
 * document-extractor as a Document extractor. Their outputs keep Dify's names (`output`, `<group>.output`, `result`,
 * `first_record`, `last_record`, `text`), so references to them need no rewriting beyond the node id.
 */
import { groupName, type DifyContext, type DifyNode } from './dify-context';
import { refTo, text, type Converted } from './dify-nodes';
import { t, type Text } from './report';
import { dict, dicts, list, str } from './values';

/** Refs of the selectors that have a value in PaiFlow (the others are noted as missing). */
const refsOf = (c: DifyContext, selectors: unknown) =>
  list(selectors)
    .map((s) => refTo(c, s))
    .filter(Boolean);

export function aggregator(n: DifyNode, c: DifyContext): Converted {
  const adv = dict(n.data.advanced_settings);
  const groups = adv.group_enabled
    ? dicts(adv.groups).map((g) => ({ name: groupName(str(g.group_name, 'Group')), variables: refsOf(c, g.variables) }))
    : [{ name: 'group', variables: refsOf(c, n.data.variables) }];
  const why: Text[] = [
    t(
      'A Variable aggregator: each group gives the value of the first of its references that has one (the branch ' +
        'that ran), as output (one group) and <group>.output, as in Dify.',
      '变量聚合节点：每个分组取其引用中第一个有值的（即实际运行的分支），输出为 output（单个分组）和 <分组>.output，与 Dify 相同。',
    ),
  ];
  const empty = groups.filter((g) => !g.variables.length);
  for (const g of empty) g.variables.push('');
  if (empty.length)
    why.push(
      t(
        `No reference of ${empty.map((g) => g.name).join(', ')} has a value in PaiFlow: its output is empty text.`,
        `${empty.map((g) => g.name).join('、')} 的引用在 PaiFlow 中都没有值：其输出为空文本。`,
      ),
    );
  c.add(n, 'variable_aggregator', { groups });
  return { outcome: empty.length ? 'approximated' : 'mapped', why };
}

/** Dify's comparison operators (list-operator filters) and the List operator's. */
const OPERATORS: Record<string, string> = {
  contains: 'contains',
  'not contains': 'not_contains',
  'start with': 'starts_with',
  'end with': 'ends_with',
  is: 'eq',
  'is not': 'neq',
  in: 'in',
  'not in': 'not_in',
  empty: 'is_empty',
  'not empty': 'not_empty',
  '=': 'eq',
  '≠': 'neq',
  '>': 'gt',
  '<': 'lt',
  '≥': 'gte',
  '≤': 'lte',
};

export function listOperator(n: DifyNode, c: DifyContext): Converted {
  const d = n.data;
  const why: Text[] = [
    t(
      "A List operator: the same filter, position, sort and limit, in Dify's order; result, first_record and " +
        'last_record as in Dify.',
      '列表操作节点：过滤、位置、排序和数量上限相同，顺序与 Dify 一致；result、first_record 和 last_record 与 Dify 相同。',
    ),
  ];
  let differs = false;
  const config: Record<string, unknown> = { input: refTo(c, d.variable) };
  const filter = dict(d.filter_by);
  if (filter.enabled) {
    const conditions = [];
    for (const cond of dicts(filter.conditions)) {
      const op = OPERATORS[str(cond.comparison_operator)];
      if (!op) {
        differs = true;
        why.push(
          t(
            `The condition "${str(cond.comparison_operator)}" has no List operator equivalent: it was left out.`,
            `条件“${str(cond.comparison_operator)}”在列表操作中没有对应项：已省略。`,
          ),
        );
        continue;
      }
      const raw = cond.value;
      const value = Array.isArray(raw) ? JSON.stringify(raw.map((v) => str(v))) : text(c, raw);
      conditions.push({
        ...(str(cond.key) ? { key: str(cond.key) } : {}),
        op,
        ...(op === 'is_empty' || op === 'not_empty' ? {} : { value }),
      });
    }
    if (conditions.length) config.filter = { logic: 'and', conditions };
  }
  const extract = dict(d.extract_by);
  if (extract.enabled && str(extract.serial)) config.position = text(c, extract.serial);
  const order = dict(d.order_by);
  if (order.enabled)
    config.sort = {
      ...(str(order.key) ? { key: str(order.key) } : {}),
      order: str(order.value) === 'desc' ? 'desc' : 'asc',
    };
  const limit = dict(d.limit);
  if (limit.enabled && Number.isInteger(Number(limit.size)) && Number(limit.size) >= 0)
    config.limit = Number(limit.size);
  const keyed = [...dicts(filter.conditions), order].some((x) => str(x.key));
  if (str(d.item_var_type) === 'file' && keyed) {
    differs = true;
    why.push(
      t(
        "Its items are files: a key such as type, extension or size is only there when the run's file objects " +
          'carry it (PaiFlow files have name, contentType and data).',
        '其各项是文件：type、extension、size 等键只有在运行收到的文件对象带有它们时才存在（PaiFlow 的文件包含 name、contentType 和 data）。',
      ),
    );
  }
  c.add(n, 'list_operator', config);
  return { outcome: differs ? 'approximated' : 'mapped', why };
}

export function documentExtractor(n: DifyNode, c: DifyContext): Converted {
  c.add(n, 'document_extractor', { files: refTo(c, n.data.variable_selector) });
  return {
    outcome: 'approximated',
    why: [
      t(
        'A Document extractor: the text of PDF, Word (.docx), HTML, Markdown, text and CSV files, as text (one ' +
          'file) or a list of texts; Dify also reads Excel, PowerPoint, e-mail and EPUB files, which fail here. A ' +
          'file is given as an object with its name and data (base64) or url.',
        '文档提取节点：提取 PDF、Word（.docx）、HTML、Markdown、纯文本和 CSV 文件的文本，单个文件为文本、多个文件为文本列表；' +
          'Dify 还能读取 Excel、PowerPoint、电子邮件和 EPUB 文件，这些在此会失败。文件以带有 name 和 data（base64）或 url 的对象提供。',
      ),
    ],
  };
}
