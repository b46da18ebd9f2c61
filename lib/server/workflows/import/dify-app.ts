/**
 * A Dify app without a workflow graph — a text generator (`completion`), a chatbot (`chat`) or an agent
 * (`agent-chat`): its `model_config` (prompt, model, form inputs) becomes Start → LLM (or Agent) → End. A chat app's
 * message is the Start input `query` and its earlier turns the input `history`, which PaiFlow's chat page fills.
 */
import { GraphBuilder } from './graph-builder';
import type { StartInput } from './dify-context';
import { modelSettings } from './dify-nodes';
import { identifier, literal } from './refs';
import { notesAsDescription, ReportBuilder, t, type ConvertedWorkflow, type Text } from './report';
import { dict, dicts, list, str } from './values';

export const APP_MODES = ['completion', 'chat', 'agent-chat'] as const;

const INPUT_TYPES: Record<string, StartInput['type']> = {
  'text-input': 'string',
  paragraph: 'string',
  select: 'string',
  number: 'number',
  checkbox: 'boolean',
};

/** The form's inputs (`user_input_form: [{ "text-input": { variable, label, required } }, …]`). */
function formInputs(form: unknown, why: Text[]): { inputs: StartInput[]; left: number } {
  const inputs: StartInput[] = [];
  let left = 0;
  for (const field of dicts(form)) {
    const [kind, spec] = Object.entries(field)[0] ?? [];
    const f = dict(spec);
    if (!kind || !INPUT_TYPES[kind]) {
      left++;
      why.push(
        t(
          `The form field "${str(f.variable)}" (${kind}) was left out.`,
          `表单字段“${str(f.variable)}”（${kind}）已舍弃。`,
        ),
      );
      continue;
    }
    const options = list(f.options)
      .map((o) => str(o))
      .filter(Boolean);
    const description = [str(f.label), options.length ? `one of: ${options.join(', ')}` : '']
      .filter(Boolean)
      .join(' — ');
    inputs.push({
      name: identifier(str(f.variable), 'input'),
      type: INPUT_TYPES[kind],
      required: f.required !== false,
      ...(description ? { description: description.slice(0, 500) } : {}),
      ...(f.default !== undefined && f.default !== null && f.default !== '' ? { default: f.default } : {}),
    });
  }
  return { inputs, left };
}

/** Dify's prompt with `{{variable}}` of the form (and `{{#query#}}` / `{{#histories#}}` of advanced prompts). */
function promptText(text: string, inputs: ReadonlySet<string>, chat: boolean): string {
  return literal(text)
    .replace(/\{ \{#(query|histories|context)#\}\}/g, (_m, v: string) =>
      v === 'query' && chat ? '{{inputs.query}}' : '',
    )
    .replace(/\{ \{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (m, v: string) => (inputs.has(v) ? `{{inputs.${v}}}` : m));
}

/** The prompt of a simple or an advanced (`chat_prompt_config` / `completion_prompt_config`) app. */
function prompts(mc: Record<string, unknown>, inputs: ReadonlySet<string>, chat: boolean) {
  if (str(mc.prompt_type) !== 'advanced') return { system: promptText(str(mc.pre_prompt), inputs, chat), user: '' };
  const system: string[] = [];
  const user: string[] = [];
  for (const m of dicts(dict(mc.chat_prompt_config).prompt)) {
    const body = promptText(str(m.text), inputs, chat);
    if (str(m.role) === 'system') system.push(body);
    else user.push(str(m.role) === 'assistant' ? `Assistant: ${body}` : body);
  }
  const completion = str(dict(dict(mc.completion_prompt_config).prompt).text);
  if (completion) user.push(promptText(completion, inputs, chat));
  return { system: system.join('\n\n'), user: user.join('\n\n') };
}

export function convertDifyApp(doc: Record<string, unknown>, mode: (typeof APP_MODES)[number]): ConvertedWorkflow {
  const app = dict(doc.app);
  const mc = dict(doc.model_config);
  const g = new GraphBuilder();
  const report = new ReportBuilder();
  const chat = mode !== 'completion';
  const startWhy: Text[] = [
    t("The Start node, with the app's form as its inputs.", '开始节点，输入即应用的表单字段。'),
  ];
  const { inputs, left } = formInputs(mc.user_input_form, startWhy);
  if (chat) {
    inputs.push({ name: 'query', type: 'string', required: true, description: 'The chat message' });
    inputs.push({ name: 'history', type: 'array', required: false, default: [], description: 'Earlier turns' });
    startWhy.push(
      t(
        'The chat message is its input "query" and the earlier turns its input "history" (the chat page fills both).',
        '聊天消息即输入 query，之前的对话即输入 history（聊天页面会填写两者）。',
      ),
    );
  }
  const names = new Set(inputs.map((i) => i.name));
  const start = g.claim('start');
  g.addNode({ id: start, type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start', config: { inputs } } });
  report.add({
    outcome: left ? 'approximated' : 'mapped',
    id: 'user_input_form',
    type: 'start',
    title: 'Form',
    nodeIds: [start],
    why: startWhy,
  });

  const model = modelSettings(mc.model);
  const p = prompts(mc, names, chat);
  const main = g.newId(str(app.name) || 'model', mode === 'agent-chat' ? 'agent' : 'llm');
  const why: Text[] = [];
  if (mode === 'agent-chat') {
    const tools = dicts(dict(mc.agent_mode).tools);
    g.addNode({
      id: main,
      type: 'agent',
      position: { x: 300, y: 0 },
      data: {
        label: str(app.name) || 'Agent',
        config: {
          ...model.config,
          systemPrompt: p.system,
          task: p.user || '{{inputs.query}}',
          history: '{{inputs.history}}',
          tools: [],
          memory: { enabled: false },
          stream: true,
        },
      },
    });
    why.push(
      t(
        'An Agent node with the same instructions and model; the chat history is its history.',
        'Agent 节点，指令和模型相同；聊天记录即其 history。',
      ),
      model.why,
    );
    for (const tool of tools)
      report.add({
        outcome: 'dropped',
        id: `tool:${str(tool.tool_name)}`,
        type: 'tool',
        title: str(tool.tool_label ?? tool.tool_name),
        nodeIds: [],
        why: [
          t(
            `The agent's tool ${str(tool.provider_id)}/${str(tool.tool_name)} has no PaiFlow equivalent: offer an ` +
              'MCP server or a workflow as a tool.',
            `Agent 的工具 ${str(tool.provider_id)}/${str(tool.tool_name)} 在 PaiFlow 中没有对应：请改用 MCP 服务器或工作流作为工具。`,
          ),
        ],
      });
  } else {
    g.addNode({
      id: main,
      type: 'llm',
      position: { x: 300, y: 0 },
      data: {
        label: str(app.name) || 'LLM',
        config: {
          ...model.config,
          systemPrompt: chat ? p.system : '',
          userPrompt: chat ? p.user || '{{inputs.query}}' : [p.system, p.user].filter(Boolean).join('\n\n') || 'Hello',
          ...(chat ? { history: '{{inputs.history}}' } : {}),
          stream: true,
        },
      },
    });
    why.push(
      chat
        ? t(
            "An LLM node with the app's prompt as its system prompt, the message as its prompt and the " +
              "conversation's history.",
            'LLM 节点：应用的提示词作为系统提示词，消息作为提示词，并带上对话历史。',
          )
        : t(
            "An LLM node whose prompt is the app's prompt with the form's values.",
            'LLM 节点，提示词即应用的提示词（填入表单值）。',
          ),
      model.why,
    );
  }
  const datasets = list(dict(dict(mc.dataset_configs).datasets).datasets);
  const item = report.add({
    outcome: 'mapped',
    id: 'model_config',
    type: mode === 'agent-chat' ? 'agent' : 'llm',
    title: str(app.name) || 'Model',
    nodeIds: [main],
    why,
  });
  if (datasets.length)
    report.note(
      item.id,
      t(
        'Its knowledge context (Dify datasets) did not come along: add a Knowledge retrieval node.',
        '其知识库上下文（Dify 数据集）未迁移：请添加知识检索节点。',
      ),
    );
  const end = g.claim('end');
  const output = chat ? 'answer' : 'text';
  g.addNode({
    id: end,
    type: 'end',
    position: { x: 600, y: 0 },
    data: { label: 'End', config: { outputs: [{ name: output, value: `{{${main}.output.text}}` }] } },
  });
  report.add({
    outcome: 'mapped',
    id: 'answer',
    type: 'end',
    title: 'Answer',
    nodeIds: [end],
    why: [t(`An End node whose output "${output}" is the reply.`, `结束节点，输出 ${output} 即回复内容。`)],
  });
  g.addEdge(start, main);
  g.addEdge(main, end);
  return {
    name: str(app.name).trim().slice(0, 200) || 'Imported Dify app',
    description: notesAsDescription([str(mc.opening_statement)].filter(Boolean), str(app.description)),
    graph: g.build(),
    report: report.build(),
  };
}
