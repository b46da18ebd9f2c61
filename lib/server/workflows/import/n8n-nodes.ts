/**
 * n8n nodes that make or fetch data: Edit Fields (Set) becomes a JSON Template node, HTTP Request an HTTP request
 * node, Respond to Webhook an End node, and the OpenAI, Basic LLM Chain and AI Agent nodes LLM and Agent nodes
 * (the model of an attached chat-model sub-node, a Calculator tool as the agent's calculator). Each records where
 * its `$json` is in PaiFlow (`c.own`).
 */
import type { N8nContext, N8nNode } from './n8n-context';
import type { N8nConverted } from './n8n-flow';
import { identifier, refOf, safeKey } from './refs';
import { t, type Text } from './report';
import { dict, dicts, isDict, num, str } from './values';

const idOf = (c: N8nContext, n: N8nNode) => c.idOf.get(n.name)!;

/** `"x": {{ref}}` made valid JSON by quoting references outside strings (PaiFlow then fills in typed values). */
export function jsonTemplate(text: string): string | undefined {
  const parses = (s: string) => {
    try {
      JSON.parse(s);
      return true;
    } catch {
      return false;
    }
  };
  if (parses(text)) return text;
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (text.startsWith('{{', i) && text.indexOf('}}', i) > 0) {
      const end = text.indexOf('}}', i) + 2;
      out += `"${text.slice(i, end)}"`;
      i = end - 1;
    } else out += ch;
  }
  return parses(out) ? out : undefined;
}

/** A value of an assignment: an expression stays a template; a literal takes its declared type. */
function assigned(c: N8nContext, name: string, raw: unknown, type: string): unknown {
  if (typeof raw !== 'string') return raw ?? null;
  if (raw.startsWith('=')) return c.text(raw, { field: name });
  if (type === 'number' || type === 'numberValue') return num(raw) ?? raw;
  if (type === 'boolean' || type === 'booleanValue') return raw === 'true';
  if (['array', 'object', 'arrayValue', 'objectValue'].includes(type))
    try {
      return JSON.parse(raw);
    } catch {
      return c.text(raw);
    }
  return c.text(raw);
}

function put(doc: Record<string, unknown>, name: string, value: unknown, dotted: boolean) {
  const keys = (dotted ? name.split('.') : [name]).map(safeKey);
  let at = doc;
  for (const k of keys.slice(0, -1)) at = (isDict(at[k]) ? at[k] : (at[k] = {})) as Record<string, unknown>;
  at[keys[keys.length - 1]] = value;
}

export function setNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  const id = idOf(c, n);
  const dotted = dict(p.options).dotNotation !== false;
  const doc: Record<string, unknown> = {};
  let include: boolean;
  const why: Text[] = [
    t('A Template node (JSON) with the same fields (output.json).', '模板节点（JSON），字段相同（output.json）。'),
  ];
  let template: string | undefined;
  if (str(p.mode) === 'raw') {
    template = jsonTemplate(c.text(p.jsonOutput, { json: true, field: 'jsonOutput' }));
    include = p.includeOtherFields === true;
  } else if (Array.isArray(dict(p.assignments).assignments)) {
    for (const a of dicts(dict(p.assignments).assignments))
      put(doc, str(a.name), assigned(c, str(a.name), a.value, str(a.type, 'string')), dotted);
    include = p.includeOtherFields === true;
  } else if (Array.isArray(dict(p.fields).values)) {
    for (const f of dicts(dict(p.fields).values)) {
      const type = str(f.type, 'stringValue');
      put(doc, str(f.name), assigned(c, str(f.name), f[type], type), dotted);
    }
    include = ['all', 'selected', 'except'].includes(str(p.include)) || p.includeOtherFields === true;
  } else {
    for (const [type, items] of Object.entries(dict(p.values)))
      for (const v of dicts(items)) put(doc, str(v.name), assigned(c, str(v.name), v.value, type), dotted);
    include = p.keepOnlySet !== true;
  }
  template ??= str(p.mode) === 'raw' ? undefined : JSON.stringify(doc, null, 2);
  const approx = template === undefined;
  if (template === undefined) {
    template = JSON.stringify({ value: c.text(p.jsonOutput, { field: 'jsonOutput' }) });
    why.push(
      t(
        'Its JSON could not be kept as JSON: it is in output.json.value as text.',
        '其 JSON 无法保持为 JSON：以文本形式保存在 output.json.value。',
      ),
    );
  }
  c.add(n, 'template', { template, format: 'json' }, index);
  const names = Object.keys(doc);
  c.own.set(n.name, [
    { kind: 'json', base: `${id}.output.json`, ...(include ? { assigned: names, rest: c.inputSources(n.name) } : {}) },
  ]);
  if (include)
    why.push(
      t(
        'It keeps the other fields the way later nodes read them: a field it does not set is read from its input.',
        '其余字段按后续节点的读取方式保留：未设置的字段从其输入读取。',
      ),
    );
  return { outcome: approx ? 'approximated' : 'mapped', why };
}

const params = (v: unknown) => dicts(dict(v).parameters);

export function httpNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  const why: Text[] = [
    t(
      'An HTTP request node with the same request; the response body is output.body.',
      'HTTP 请求节点，请求相同；响应体在 output.body。',
    ),
  ];
  const method = str(p.method ?? p.requestMethod, 'GET').toUpperCase();
  let url = c.text(p.url, { field: 'url' });
  const query = p.sendQuery ? params(p.queryParameters) : [];
  if (query.length)
    url +=
      (url.includes('?') ? '&' : '?') +
      query.map((q) => `${encodeURIComponent(str(q.name))}=${c.text(q.value)}`).join('&');
  const headers = (p.sendHeaders ? params(p.headerParameters) : []).map((h) => ({
    key: str(h.name),
    value: c.text(h.value, { field: 'headers' }),
  }));
  let bodyType = 'none';
  let body = '';
  if (p.sendBody) {
    const type = str(p.contentType, 'json');
    const pairs = params(p.bodyParameters);
    if (type === 'json' || type === 'multipart-form-data') {
      bodyType = 'json';
      body =
        str(p.specifyBody) === 'json'
          ? c.text(p.jsonBody, { json: true, field: 'jsonBody' })
          : JSON.stringify(
              Object.fromEntries(pairs.map((b) => [str(b.name), c.text(b.value, { field: str(b.name) })])),
            );
      if (type === 'multipart-form-data')
        why.push(t('The multipart form body is sent as JSON.', 'multipart 表单请求体改为以 JSON 发送。'));
    } else if (type === 'form-urlencoded') {
      bodyType = 'text';
      body = pairs.map((b) => `${encodeURIComponent(str(b.name))}=${c.text(b.value)}`).join('&');
      headers.push({ key: 'content-type', value: 'application/x-www-form-urlencoded' });
    } else if (type === 'raw') {
      bodyType = 'text';
      body = c.text(p.body, { field: 'body' });
      if (str(p.rawContentType)) headers.push({ key: 'content-type', value: str(p.rawContentType) });
    } else why.push(t(`The ${type} body is not sent.`, `${type} 请求体不会发送。`));
  }
  if ((str(p.authentication) && str(p.authentication) !== 'none') || n.credentials)
    why.push(
      t(
        'Its n8n credential did not come along: create a credential (bearer, basic or header) and choose it in ' +
          'the node.',
        '其 n8n 凭据未导入：请创建凭据（bearer、basic 或 header）并在节点中选择。',
      ),
    );
  const timeout = num(dict(p.options).timeout);
  c.add(
    n,
    'http',
    {
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].includes(method) ? method : 'GET',
      url,
      headers,
      bodyType: ['GET', 'HEAD'].includes(method) ? 'none' : bodyType,
      body,
      ...(timeout ? { timeoutMs: Math.min(600_000, Math.max(100, timeout)) } : {}),
    },
    index,
  );
  c.own.set(n.name, [{ kind: 'body', base: `${idOf(c, n)}.output.body` }]);
  return { outcome: why.length > 1 ? 'approximated' : 'mapped', why };
}

export function respondNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  const mode = str(p.respondWith, 'firstIncomingItem');
  const why: Text[] = [
    t("An End node: what it answered is the run's outputs.", '结束节点：原来的响应内容即运行的输出。'),
  ];
  let outputs: Array<{ name: string; value: string }> = [];
  const whole = () => refOf(c.fieldPaths(c.inputSources(n.name), []));
  if (mode === 'json') {
    const raw = isDict(p.responseBody) ? JSON.stringify(p.responseBody) : str(p.responseBody);
    const doc = jsonTemplate(c.text(raw, { json: true, field: 'responseBody' }));
    const parsed = doc ? (JSON.parse(doc) as unknown) : undefined;
    if (isDict(parsed))
      outputs = Object.entries(parsed).map(([k, v], i) => ({
        name: identifier(k, `output${i + 1}`),
        value: typeof v === 'string' ? v : JSON.stringify(v),
      }));
    else outputs = [{ name: 'response', value: doc ?? c.text(raw, { field: 'responseBody' }) }];
  } else if (mode === 'text') outputs = [{ name: 'text', value: c.text(p.responseBody, { field: 'responseBody' }) }];
  else if (mode === 'firstIncomingItem' || mode === 'allIncomingItems')
    outputs = [{ name: 'response', value: whole() }];
  else if (mode !== 'noData')
    why.push(
      t(
        `Answering with ${mode} is not carried: the run's output is the incoming item.`,
        `${mode} 响应方式未迁移：运行输出为传入的数据项。`,
      ),
    );
  if (!outputs.length && mode !== 'noData') outputs = [{ name: 'response', value: whole() }];
  const code = num(dict(p.options).responseCode);
  if (code && code !== 200)
    why.push(
      t(`Its status code ${code} is not sent: a run's answer is 200.`, `不会发送状态码 ${code}：运行的响应为 200。`),
    );
  c.add(n, 'end', { outputs }, index);
  return { outcome: why.length > 1 ? 'approximated' : 'mapped', why };
}
