/**
 * n8n's AI nodes: the OpenAI node (the LangChain one and the legacy `n8n-nodes-base.openAi`), Basic LLM Chain and AI
 * Agent become LLM and Agent nodes, and what is attached to them folds in: the chat model's settings, chat memory as
 * the conversation's history (the Start input `history`, which PaiFlow's chat page fills), a structured output
 * parser as JSON mode with its schema in the prompt, and the tools PaiFlow's agent has (calculator, HTTP requests).
 */
import type { N8nContext, N8nNode } from './n8n-context';
import type { N8nConverted } from './n8n-flow';
import { t, type ReportItem, type Text } from './report';
import { dict, isDict, list, str } from './values';

const idOf = (c: N8nContext, n: N8nNode) => c.idOf.get(n.name)!;

/** System and user prompts from n8n messages (`{ role, content }` or LangChain's `{ type, message }`). */
function prompts(c: N8nContext, messages: unknown[]): { system: string; user: string } {
  const system: string[] = [];
  const user: string[] = [];
  for (const m of messages.filter(isDict)) {
    const role =
      str(m.role) ||
      (str(m.type).startsWith('System') ? 'system' : str(m.type).startsWith('AI') ? 'assistant' : 'user');
    const body = c.text(m.content ?? m.message, { field: 'messages' });
    if (!body.trim()) continue;
    if (role === 'system') system.push(body);
    else user.push(role === 'assistant' ? `Assistant: ${body}` : body);
  }
  return { system: system.join('\n\n'), user: user.join('\n\n') };
}

const modelWhy = (model: string) =>
  t(
    `Model ${model}: give the node a credential; without one it uses the server's OpenAI-compatible settings, or ` +
      'the offline demo model.',
    `模型 ${model}：请为节点选择凭据；未选择时使用服务器的 OpenAI 兼容配置，或离线演示模型。`,
  );

export function openAiNode(n: N8nNode, c: N8nContext, index: number): N8nConverted | undefined {
  const p = dict(n.parameters);
  if (str(p.resource, 'text') !== 'text' || !['message', 'response'].includes(str(p.operation, 'message')))
    return undefined;
  const model = c.modelName(str(dict(p.modelId).value, str(p.modelId)));
  const { system, user } = prompts(c, list(dict(p.messages ?? p.responses).values));
  const o = dict(p.options);
  const jsonMode = p.jsonOutput === true;
  c.add(
    n,
    'llm',
    {
      model,
      systemPrompt: system,
      userPrompt: user || 'Hello',
      jsonMode,
      stream: true,
      ...(typeof o.temperature === 'number' ? { temperature: Math.min(2, Math.max(0, o.temperature)) } : {}),
      ...(typeof o.maxTokens === 'number' && o.maxTokens >= 1 ? { maxTokens: Math.round(o.maxTokens) } : {}),
    },
    index,
  );
  c.own.set(n.name, [{ kind: 'openai', base: `${idOf(c, n)}.output`, jsonOutput: jsonMode }]);
  return {
    outcome: 'mapped',
    why: [
      t(
        'An LLM node with the same messages; $json.message.content is output.text.',
        'LLM 节点，消息相同；$json.message.content 对应 output.text。',
      ),
      modelWhy(model),
    ],
  };
}

/** The AI Agent (and Basic LLM Chain) prompt: the text it is given, or the chat input for "auto". */
const promptOf = (p: Record<string, unknown>, version = 1.1) =>
  str(p.promptType) === 'define' || (!p.promptType && p.text)
    ? p.text
    : // Before version 1.1 the default prompt was the item's `input` (and the chat trigger's `chatInput` since).
      version < 1.1 && !p.promptType
      ? '={{ $json.input }}'
      : '={{ $json.chatInput }}';

/** The sub-nodes attached to an Agent or LLM chain, as PaiFlow config and a system prompt addition. */
function attachments(c: N8nContext, n: N8nNode) {
  const history = c.attached(n.name, 'ai_memory').length ? historyInput(c) : undefined;
  const parserName = c.attached(n.name, 'ai_outputParser')[0];
  const parser = parserName ? structuredParser(c, parserName) : undefined;
  const tools: string[] = [];
  const toolLines: string[] = [];
  for (const name of c.attached(n.name, 'ai_tool')) {
    const tool = c.nodes.get(name)!;
    const p = dict(tool.parameters);
    if (tool.type.endsWith('.toolCalculator')) tools.push('calculator');
    else if (tool.type.endsWith('.toolHttpRequest')) {
      tools.push('http_fetch');
      toolLines.push(
        `- ${name}: ${str(p.toolDescription) || 'an HTTP request'} — call http_fetch with ${str(p.method, 'GET')} ` +
          `${str(p.url).replace(/^=/, '')}`,
      );
    }
  }
  const extra = [
    parser ? `Reply with one JSON object shaped like this example:\n${parser}` : '',
    toolLines.length ? `Tools:\n${toolLines.join('\n')}` : '',
  ].filter(Boolean);
  return { history, parser, tools: [...new Set(tools)], extra: extra.join('\n\n') };
}

/** The Start input `history` (the conversation's earlier turns, which PaiFlow's chat page passes), as a reference. */
function historyInput(c: N8nContext): string {
  c.declare({ name: 'history', type: 'array', required: false, default: [], description: 'Earlier turns' });
  return '{{inputs.history}}';
}

/** A structured output parser's schema or example, as text for the prompt. */
function structuredParser(c: N8nContext, name: string): string | undefined {
  const node = c.nodes.get(name)!;
  if (node.type.endsWith('.outputParserAutofixing')) {
    const inner = c.attached(name, 'ai_outputParser')[0];
    return inner ? structuredParser(c, inner) : undefined;
  }
  if (!node.type.endsWith('.outputParserStructured')) return undefined;
  const p = dict(node.parameters);
  return (
    (str(p.schemaType) === 'manual' ? str(p.inputSchema) : str(p.jsonSchemaExample ?? p.jsonSchema)).trim() || '{}'
  );
}

const joinPrompt = (...parts: string[]) => parts.filter((x) => x.trim()).join('\n\n');

export function agentNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  const lm = c.attached(n.name, 'ai_languageModel')[0];
  const { model, ...settings } = c.modelOf(lm);
  const tools = c.attached(n.name, 'ai_tool');
  const att = attachments(c, n);
  const task = c.text(promptOf(p, n.typeVersion), { field: 'text' });
  c.add(
    n,
    'agent',
    {
      model,
      ...settings,
      systemPrompt: joinPrompt(c.text(dict(p.options).systemMessage, { field: 'systemMessage' }), att.extra),
      task: task || 'Help the user.',
      ...(att.history ? { history: att.history } : {}),
      tools: att.tools,
      memory: { enabled: false },
      stream: true,
    },
    index,
  );
  c.own.set(n.name, [{ kind: 'agent', base: `${idOf(c, n)}.output` }]);
  const why: Text[] = [
    t(
      'An Agent node with the same prompt and system message; $json.output is output.text.',
      'Agent 节点，提示词和系统消息相同；$json.output 对应 output.text。',
    ),
    modelWhy(model),
  ];
  const kept = tools.filter((name) => /\.tool(Calculator|HttpRequest)$/.test(c.nodes.get(name)?.type ?? ''));
  if (tools.length > kept.length)
    why.push(t('Some of its tools did not come along (see those nodes).', '部分工具未迁移（见这些节点）。'));
  if (att.parser)
    why.push(
      t(
        'Its output parser became an instruction to answer with JSON like its schema: the agent answers text ' +
          '(output.text), not the parsed object n8n gave as $json.output.',
        '其输出解析器改为要求按其结构回复 JSON 的指令：Agent 输出文本（output.text），而非 n8n 在 $json.output 中给出的解析后对象。',
      ),
    );
  return { outcome: why.length > 2 ? 'approximated' : 'mapped', why };
}

export function chainNode(n: N8nNode, c: N8nContext, index: number): N8nConverted {
  const p = dict(n.parameters);
  const { model, ...settings } = c.modelOf(c.attached(n.name, 'ai_languageModel')[0]);
  const { system } = prompts(c, list(dict(p.messages).messageValues));
  const att = attachments(c, n);
  c.add(
    n,
    'llm',
    {
      model,
      ...settings,
      systemPrompt: joinPrompt(system, att.extra),
      userPrompt: c.text(promptOf(p, n.typeVersion), { field: 'text' }) || 'Hello',
      ...(att.history ? { history: att.history } : {}),
      ...(att.parser ? { jsonMode: true } : {}),
      stream: true,
    },
    index,
  );
  c.own.set(n.name, [{ kind: att.parser ? 'parsed' : 'chain', base: `${idOf(c, n)}.output` }]);
  const why: Text[] = [
    att.parser
      ? t(
          "An LLM node with the same prompt in JSON mode, told the output parser's schema; $json.output is " +
            'output.json (the schema itself is not enforced).',
          'JSON 模式的 LLM 节点，提示词相同，并告知输出解析器的结构；$json.output 对应 output.json（不强制该结构）。',
        )
      : t(
          'An LLM node with the same prompt; $json.text is output.text.',
          'LLM 节点，提示词相同；$json.text 对应 output.text。',
        ),
    modelWhy(model),
  ];
  return { outcome: att.parser ? 'approximated' : 'mapped', why };
}

/**
 * The legacy OpenAI node (`n8n-nodes-base.openAi`): a chat completion (its messages) or a text completion / edit
 * (its prompt) is an LLM node; $json.message.content (chat) or $json.text (text) is its output.text. Images are not.
 */
export function legacyOpenAiNode(n: N8nNode, c: N8nContext, index: number): N8nConverted | undefined {
  const p = dict(n.parameters);
  const resource = str(p.resource, 'text');
  const operation = str(p.operation, 'complete');
  if (!['chat', 'text'].includes(resource) || !['complete', 'edit'].includes(operation)) return undefined;
  const chat = resource === 'chat';
  const o = dict(p.options);
  const { system, user } = chat
    ? prompts(c, list(dict(p.prompt).messages))
    : {
        system: operation === 'edit' ? c.text(p.instruction, { field: 'instruction' }) : '',
        user: c.text(operation === 'edit' ? p.input : p.prompt, { field: 'prompt' }),
      };
  const model = c.modelName(str(p.model) || (chat ? 'gpt-3.5-turbo' : 'gpt-3.5-turbo-instruct'));
  c.add(
    n,
    'llm',
    {
      model,
      systemPrompt: system,
      userPrompt: user || 'Hello',
      stream: true,
      ...(typeof o.temperature === 'number' ? { temperature: Math.min(2, Math.max(0, o.temperature)) } : {}),
      ...(typeof o.maxTokens === 'number' && o.maxTokens >= 1 ? { maxTokens: Math.round(o.maxTokens) } : {}),
    },
    index,
  );
  c.own.set(n.name, [{ kind: chat ? 'openai' : 'chain', base: `${idOf(c, n)}.output` }]);
  return {
    outcome: 'mapped',
    why: [
      t(
        `An LLM node with the same ${chat ? 'messages; $json.message.content' : 'prompt; $json.text'} is output.text.`,
        `LLM 节点，${chat ? '消息相同；$json.message.content' : '提示词相同；$json.text'} 对应 output.text。`,
      ),
      modelWhy(model),
    ],
  };
}

/** A chat model, tool, memory or output parser attached to an Agent or LLM chain. */
export function foldSubNode(c: N8nContext, n: N8nNode, item: ReportItem) {
  const link = c.subLinks.find((l) => l.from === n.name);
  const owner = link ? c.idOf.get(link.to) : undefined;
  const present = owner && c.g.allNodes().some((x) => x.id === owner);
  const kind = link?.kind ?? '';
  const keep = (why: Text, outcome: ReportItem['outcome'] = 'mapped') => {
    item.nodeIds = [owner!];
    item.why = [why];
    item.outcome = outcome;
  };
  if (present && kind === 'ai_languageModel')
    return keep(t(`Its model settings are in the node "${owner}".`, `其模型设置已并入节点“${owner}”。`));
  if (present && kind === 'ai_tool' && n.type.endsWith('.toolCalculator'))
    return keep(t(`The calculator tool of the Agent node "${owner}".`, `Agent 节点“${owner}”的计算器工具。`));
  if (present && kind === 'ai_tool' && n.type.endsWith('.toolHttpRequest'))
    return keep(
      t(
        `The Agent node "${owner}" has the http_fetch tool, and its system prompt names this request (method, URL, ` +
          'what it is for); the model writes the whole URL, not only the placeholders, and credentials are chosen ' +
          'in PaiFlow.',
        `Agent 节点“${owner}”获得 http_fetch 工具，其系统提示词写明此请求（方法、URL、用途）；由模型写出完整 URL 而不只是占位符，` +
          '凭据需在 PaiFlow 中选择。',
      ),
      'approximated',
    );
  if (present && kind === 'ai_memory') {
    const k = Number(dict(n.parameters).contextWindowLength ?? 5);
    return keep(
      t(
        `The conversation's history: node "${owner}" is given the Start input "history", the earlier turns PaiFlow's ` +
          `chat page passes (up to 50 messages; n8n kept the last ${k} turns, in its own store).`,
        `对话历史：节点“${owner}”使用开始节点的输入 history，即 PaiFlow 聊天页面传入的之前对话（最多 50 条消息；` +
          `n8n 在自己的存储中保留最近 ${k} 轮）。`,
      ),
      k >= 25 ? 'mapped' : 'approximated',
    );
  }
  if (present && kind === 'ai_outputParser' && /outputParser(Structured|Autofixing)$/.test(n.type))
    return keep(
      t(
        `Node "${owner}" is told to answer JSON shaped like this parser's schema; the schema is not enforced.`,
        `节点“${owner}”被要求按此解析器的结构回复 JSON；不强制该结构。`,
      ),
      'approximated',
    );
  item.outcome = 'dropped';
  item.why = [
    kind === 'ai_tool'
      ? t(
          "PaiFlow's Agent has no such built-in tool: offer a workflow or an MCP server as a tool instead.",
          'PaiFlow 的 Agent 没有这个内置工具：请改用工作流或 MCP 服务器作为工具。',
        )
      : t('PaiFlow has no node for this AI sub-node.', 'PaiFlow 没有对应这个 AI 子节点的节点。'),
  ];
}
