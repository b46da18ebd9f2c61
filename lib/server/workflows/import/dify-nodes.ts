/**
 * Dify node types that become one PaiFlow node each: start, end, answer, llm, knowledge-retrieval, code,
 * http-request and template-transform. Each adds its node and says how close it is. (Branching and iterating types
 * are dify-branching.ts; variable-aggregator, list-operator and document-extractor dify-lists.ts.)
 */
import type { DifyContext, DifyNode, StartInput } from './dify-context';
import { rewriteDifyText, rewriteJinja, type Selector } from './dify-refs';
import { identifier, literal } from './refs';
import { t, type Outcome, type Text } from './report';
import { clamp, dict, dicts, int, list, num, str } from './values';

export interface Converted {
  outcome: Outcome;
  why: Text[];
  /** PaiFlow nodes it became beside the one with its own id. */
  extra?: string[];
}

const mapped = (...why: Text[]): Converted => ({ outcome: 'mapped', why });
const approximated = (...why: Text[]): Converted => ({ outcome: 'approximated', why });

/** `{{path}}` of a selector, or '' (noted) when it has none. */
export function refTo(c: DifyContext, selector: unknown): string {
  const sel = list(selector).map((s) => str(s));
  const path = c.pathOf(sel as Selector);
  if (!path && sel.length) c.missing(`{{#${sel.join('.')}#}}`);
  return path ? `{{${path}}}` : '';
}

export const text = (c: DifyContext, value: unknown, context = '') => rewriteDifyText(value, c, c.missing, context);

const INPUT_TYPES: Record<string, StartInput['type']> = {
  'text-input': 'string',
  paragraph: 'string',
  select: 'string',
  number: 'number',
  checkbox: 'boolean',
  json_object: 'object',
  file: 'object',
  'file-list': 'array',
};

export function start(n: DifyNode, c: DifyContext): Converted {
  const why: Text[] = [t('The Start node, with the same inputs.', '开始节点，输入变量相同。')];
  for (const v of dicts(n.data.variables)) {
    const kind = str(v.type, 'text-input');
    const options = list(v.options)
      .map((o) => str(o))
      .filter(Boolean);
    const description = [str(v.label), options.length ? `one of: ${options.join(', ')}` : '']
      .filter(Boolean)
      .join(' — ')
      .slice(0, 500);
    c.declare({
      name: identifier(str(v.variable), 'input'),
      type: INPUT_TYPES[kind] ?? 'string',
      required: v.required !== false,
      ...(description ? { description } : {}),
      ...(v.default !== undefined && v.default !== null && v.default !== '' ? { default: v.default } : {}),
    });
    if (kind === 'file' || kind === 'file-list')
      why.push(
        t(
          `The file input "${str(v.variable)}" takes a JSON value (e.g. a file's URL): runs do not upload files.`,
          `文件输入“${str(v.variable)}”改为接收 JSON 值（例如文件的 URL）：运行时不上传文件。`,
        ),
      );
  }
  c.add(n, 'start', { inputs: [] });
  return { outcome: why.length > 1 ? 'approximated' : 'mapped', why };
}

export function end(n: DifyNode, c: DifyContext): Converted {
  const outputs = dicts(n.data.outputs).map((o, i) => ({
    name: identifier(str(o.variable), `output${i + 1}`),
    value: refTo(c, o.value_selector),
  }));
  c.add(n, 'end', { outputs });
  return mapped(t('An End node with the same outputs.', '结束节点，输出变量相同。'));
}

function llmMessages(n: DifyNode, c: DifyContext, context: string) {
  const system: string[] = [];
  const user: string[] = [];
  const jinjaVars = new Map(
    dicts(dict(n.data.prompt_config).jinja2_variables).map((v) => [str(v.variable), refTo(c, v.value_selector)]),
  );
  const render = (m: Record<string, unknown>) => {
    if (str(m.edition_type) !== 'jinja2') return text(c, m.text, context);
    const paths = new Map([...jinjaVars].map(([k, v]) => [k, v.slice(2, -2) || undefined]));
    return rewriteJinja(str(m.jinja2_text), paths).text;
  };
  const template = n.data.prompt_template;
  if (Array.isArray(template)) {
    for (const m of dicts(template)) {
      const body = render(m);
      if (!body.trim()) continue;
      const role = str(m.role, 'user');
      if (role === 'system') system.push(body);
      else user.push(role === 'assistant' ? `Assistant: ${body}` : body);
    }
  } else user.push(render(dict(template)));
  const memory = dict(n.data.memory);
  if (c.mode === 'advanced-chat' && n.data.memory)
    user.push(text(c, str(memory.query_prompt_template) || '{{#sys.query#}}'));
  return { system: system.join('\n\n'), user: user.filter((u) => u.trim()).join('\n\n') };
}

/** Dify's model as a PaiFlow LLM node's settings, and the sentence saying which model. */
export function modelSettings(model: unknown) {
  const m = dict(model);
  const params = dict(m.completion_params);
  const temperature = num(params.temperature);
  const maxTokens = int(params.max_tokens, 1, 200_000);
  const name = str(m.name) || 'gpt-4o-mini';
  const provider = str(m.provider);
  return {
    config: {
      model: name,
      ...(temperature !== undefined ? { temperature: clamp(temperature, 0, 2) } : {}),
      ...(maxTokens ? { maxTokens } : {}),
    },
    why: t(
      `Model ${name}${provider ? ` (Dify provider ${provider})` : ''}: give the node a credential for that provider; ` +
        "without one it uses the server's OpenAI-compatible settings, or the offline demo model.",
      `模型 ${name}${provider ? `（Dify 供应商 ${provider}）` : ''}：请为节点选择该供应商的凭据；` +
        '未选择时使用服务器的 OpenAI 兼容配置，或离线演示模型。',
    ),
  };
}

export function llm(n: DifyNode, c: DifyContext): Converted {
  const ctx = dict(n.data.context);
  const ctxSel = list(ctx.variable_selector).map((s) => str(s));
  let context = '';
  if (ctx.enabled && ctxSel.length) {
    const id = c.idOf.get(ctxSel[0]);
    context =
      c.typeOf(ctxSel[0]) === 'knowledge-retrieval' && id && !c.dropped.has(ctxSel[0])
        ? `{{${id}.output.context}}`
        : refTo(c, ctxSel);
  }
  const { system, user } = llmMessages(n, c, context);
  const model = modelSettings(n.data.model);
  const jsonMode = n.data.structured_output_enabled === true;
  let userPrompt = user;
  let systemPrompt = system;
  if (!userPrompt.trim()) {
    if (c.mode === 'advanced-chat') userPrompt = `{{${c.pathOf(['sys', 'query'])}}}`;
    else [userPrompt, systemPrompt] = [system || literal(c.titleOf(n)), ''];
  }
  c.add(n, 'llm', { ...model.config, systemPrompt, userPrompt, jsonMode, stream: true });
  const result = mapped(t('An LLM node with the same prompts.', 'LLM 节点，提示词相同。'), model.why);
  if (n.data.memory && c.mode === 'advanced-chat')
    c.note(
      t(
        "Dify's conversation memory is not carried: the node sees this turn only.",
        'Dify 的对话记忆未迁移：节点只看到本轮输入。',
      ),
    );
  if (dict(n.data.vision).enabled)
    c.note(
      t('Vision input (files) is not carried: add images in the node.', '视觉输入（文件）未迁移：请在节点中添加图片。'),
    );
  if (jsonMode && n.data.structured_output)
    c.note(
      t(
        'Structured output asks for a JSON object (output.json); the schema itself is not enforced.',
        '结构化输出改为要求 JSON 对象（output.json），但不再强制其 schema。',
      ),
    );
  return result;
}

export function knowledge(n: DifyNode, c: DifyContext): Converted {
  const ids = list(n.data.dataset_ids)
    .map((d) => str(d))
    .filter(Boolean);
  const multiple = dict(n.data.multiple_retrieval_config);
  const threshold = multiple.score_threshold_enabled === false ? undefined : num(multiple.score_threshold);
  c.add(n, 'knowledge', {
    knowledgeBaseId: ids[0] ?? '',
    query: refTo(c, n.data.query_variable_selector),
    topK: int(multiple.top_k, 1, 50) ?? 5,
    ...(threshold ? { threshold } : {}),
    mode: 'hybrid',
  });
  return approximated(
    t(
      `A Knowledge retrieval node. Dify's knowledge base${ids.length > 1 ? 's' : ''} (${ids.join(', ') || 'none'}) ` +
        'did not come along: create a PaiFlow knowledge base with the same documents and choose it in the node' +
        `${ids.length > 1 ? ' (it searches one)' : ''}. Its context block is output.context.`,
      `知识检索节点。Dify 的知识库（${ids.join('、') || '无'}）无法迁移：请在 PaiFlow 中用相同文档创建知识库，` +
        `并在节点中选择它${ids.length > 1 ? '（只能选择一个）' : ''}。检索到的上下文在 output.context。`,
    ),
  );
}

const lines = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const i = l.indexOf(':');
      return i < 0 ? [l, ''] : [l.slice(0, i).trim(), l.slice(i + 1).trim()];
    });

export function http(n: DifyNode, c: DifyContext): Converted {
  const d = n.data;
  const why: Text[] = [t('An HTTP request node with the same request.', 'HTTP 请求节点，请求相同。')];
  const method = str(d.method, 'get').toUpperCase();
  const headers = lines(str(d.headers)).map(([key, value]) => ({ key, value: text(c, value) }));
  const params = lines(str(d.params)).map(([k, v]) => `${encodeURIComponent(k)}=${text(c, v)}`);
  let url = text(c, d.url);
  if (params.length) url += (url.includes('?') ? '&' : '?') + params.join('&');
  const body = dict(d.body);
  const kind = str(body.type, 'none');
  const data = Array.isArray(body.data) ? dicts(body.data) : [{ key: '', value: str(body.data) }];
  let bodyType = 'none';
  let bodyText = '';
  if (kind === 'json' || kind === 'raw-text') {
    bodyType = kind === 'json' ? 'json' : 'text';
    bodyText = text(c, data.map((p) => str(p.value)).join(''));
  } else if (kind === 'x-www-form-urlencoded' || kind === 'form-data') {
    bodyType = 'text';
    bodyText = data.map((p) => `${encodeURIComponent(str(p.key))}=${text(c, p.value)}`).join('&');
    headers.push({ key: 'content-type', value: 'application/x-www-form-urlencoded' });
    if (kind === 'form-data')
      why.push(t('The multipart form body is sent URL-encoded.', 'multipart 表单请求体改为 URL 编码发送。'));
  } else if (kind === 'binary') why.push(t('The binary (file) body is not sent.', '二进制（文件）请求体不会发送。'));
  const auth = dict(d.authorization);
  if (str(auth.type) === 'api-key')
    why.push(
      t(
        'Its API key was not imported: create a credential (bearer, basic or header) and choose it in the node.',
        '其 API Key 未导入：请创建凭据（bearer、basic 或 header）并在节点中选择。',
      ),
    );
  const timeout = dict(d.timeout);
  const seconds = Math.max(num(timeout.read) ?? 0, num(timeout.connect) ?? 0, num(timeout.max_read_timeout) ?? 0);
  const node = c.add(n, 'http', {
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].includes(method) ? method : 'GET',
    url,
    headers,
    bodyType: ['GET', 'HEAD'].includes(method) ? 'none' : bodyType,
    body: bodyText,
    ...(seconds ? { timeoutMs: clamp(seconds * 1000, 100, 600_000) } : {}),
  });
  const retry = dict(d.retry_config);
  if (retry.enabled)
    node.data.retry = {
      maxAttempts: (int(retry.max_retries, 0, 9) ?? 0) + 1,
      backoffMs: int(retry.retry_interval, 0, 600_000) ?? 500,
    };
  return { outcome: why.length > 1 ? 'approximated' : 'mapped', why };
}

export function templateTransform(n: DifyNode, c: DifyContext): Converted {
  const vars = new Map(
    dicts(n.data.variables).map((v) => [str(v.variable), refTo(c, v.value_selector).slice(2, -2) || undefined]),
  );
  const r = rewriteJinja(str(n.data.template), vars);
  c.add(n, 'template', { template: r.text, format: 'text' });
  const why: Text[] = [t('A Template node with the same text and references.', '模板节点，文字和引用相同。')];
  if (r.filters.length)
    why.push(
      t(`Jinja2 filters were left out: ${r.filters.join(', ')}.`, `已去掉 Jinja2 过滤器：${r.filters.join('、')}。`),
    );
  if (r.kept.length)
    why.push(
      t(
        "Jinja2 statements and expressions PaiFlow's templates do not evaluate are kept as text: " +
          `${r.kept.join(' ')}. ` +
          'Rewrite them, e.g. with a Code node.',
        `PaiFlow 模板不支持的 Jinja2 语句和表达式已按原文保留：${r.kept.join(' ')}。请改写，例如使用代码节点。`,
      ),
    );
  return { outcome: why.length > 1 ? 'approximated' : 'mapped', why };
}

/** The first branch's value that is there, per group: `{{a || b}}` in a JSON template. */
