/**
 * Dify tool nodes PaiFlow can do itself: the time tool's current time is a Code node, and the Jina reader (a known
 * web API: GET https://r.jina.ai/<url>, the page as text) an HTTP request node. Other tools are plugins of Dify's
 * marketplace or of a workspace, dropped with the reason (dify.ts).
 */
import type { DifyContext, DifyNode } from './dify-context';
import { refTo, text, type Converted } from './dify-nodes';
import { t } from './report';
import { dict, str } from './values';

/** A tool parameter's value as PaiFlow text: a `mixed` / `constant` template, or a `variable` selector. */
function param(c: DifyContext, n: DifyNode, name: string): string {
  const p = dict(dict(n.data.tool_parameters)[name]);
  if (str(p.type) === 'variable') return refTo(c, p.value);
  return text(c, p.value ?? dict(n.data.tool_configurations)[name]);
}

const toolKey = (n: DifyNode) => `${str(n.data.provider_id).split('/').pop()}/${str(n.data.tool_name)}`;

/** Whether PaiFlow converts this tool node (else it is dropped). */
export const convertsTool = (n: DifyNode) => ['time/current_time', 'jina/jina_reader'].includes(toolKey(n));

const CURRENT_TIME = `// Dify's time tool: the current time, formatted as its default "%Y-%m-%d %H:%M:%S" in UTC.
function main() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, '0');
  return {
    text: d.getUTCFullYear() + '-' + p(d.getUTCMonth() + 1) + '-' + p(d.getUTCDate()) + ' ' +
      p(d.getUTCHours()) + ':' + p(d.getUTCMinutes()) + ':' + p(d.getUTCSeconds()),
  };
}
`;

export function tool(n: DifyNode, c: DifyContext): Converted {
  const id = c.idOf.get(n.id)!;
  if (toolKey(n) === 'time/current_time') {
    c.add(n, 'code', { code: CURRENT_TIME, inputs: {} });
    const conf = { ...dict(n.data.tool_configurations), ...dict(n.data.tool_parameters) };
    const tz = str(dict(conf.timezone).value ?? conf.timezone, 'UTC');
    const format = str(dict(conf.format).value ?? conf.format, '%Y-%m-%d %H:%M:%S');
    const same = tz === 'UTC' && format === '%Y-%m-%d %H:%M:%S';
    return {
      outcome: same ? 'mapped' : 'approximated',
      why: [
        t(
          `A Code node that gives the current time as text (output.text), as "%Y-%m-%d %H:%M:%S" in UTC` +
            `${same ? '' : ` (Dify was set to ${format} in ${tz}: change the code for that)`}.`,
          `代码节点，以文本（output.text）给出当前时间，格式为 UTC 的“%Y-%m-%d %H:%M:%S”` +
            `${same ? '' : `（Dify 设置为 ${tz} 的 ${format}：请相应修改代码）`}。`,
        ),
      ],
    };
  }
  // jina/jina_reader
  c.add(n, 'http', {
    method: 'GET',
    url: `https://r.jina.ai/${param(c, n, 'url')}`,
    headers: [],
    bodyType: 'none',
    body: '',
  });
  c.outputs.set(n.id, (variable) => (variable === 'text' ? `${id}.output.body` : undefined));
  return {
    outcome: 'approximated',
    why: [
      t(
        "An HTTP request to Jina's reader (GET https://r.jina.ai/<url>), whose answer is the page as text " +
          "(output.body, which later nodes read as the tool's text); an API key, if Dify had one, is a credential to " +
          "choose, and the page comes as Jina formats it without the tool's options.",
        'HTTP 请求 Jina 阅读器（GET https://r.jina.ai/<url>），返回页面文本（output.body，后续节点将其作为工具的 text 读取）；' +
          '如 Dify 配置了 API Key，请选择凭据，页面格式以 Jina 默认为准，不含工具的其他选项。',
      ),
    ],
  };
}
