import type { WorkflowTemplate } from './types';

const TASK_EN =
  'Research the question below and answer it with sources.\n' +
  'Question: {{inputs.question}}\n' +
  'Start from: {{inputs.startUrl}}\n' +
  'Read pages with the http_fetch tool (begin with the page above, then follow links that look relevant), at most ' +
  'five pages. Answer in the language of the question, and list every URL you used under "Sources".';

/**
 * An agent with the http_fetch tool (through the SSRF guard, like every outbound request). The offline demo model
 * calls a tool only when asked for it by name (`call:http_fetch {...}` on a line of the task) or by a built-in
 * intent, and fetching pages is neither, so offline it answers without any network call; a real model fetches.
 */
export const RESEARCH_AGENT_TEMPLATE: WorkflowTemplate = {
  id: 'research-agent',
  category: 'agents',
  name: { en: 'Web research agent', zh: '网页调研智能体' },
  description: {
    en: 'An agent reads web pages with the http_fetch tool, follows relevant links and answers with its sources.',
    zh: '智能体用 http_fetch 工具读取网页、顺着相关链接继续查找，最后给出附带来源链接的答案。',
  },
  howTo: {
    en:
      '1. Add an OpenAI-compatible model under Settings → Credentials (the offline demo model does not browse).\n' +
      '2. Run it with a question and a start page; the trace shows every page the agent fetched.\n' +
      '3. Private and internal addresses are refused; an admin can allow a trusted internal host with ' +
      'HTTP_ALLOWLIST.\n' +
      "Tip: add knowledge_search to the agent's tools to combine the web with your own documents.",
    zh:
      '1. 在「设置 → 凭据」中添加一个兼容 OpenAI 接口的模型（离线演示模型不会真正浏览网页）。\n' +
      '2. 输入问题和起始网页后运行，运行轨迹中能看到智能体读取的每个页面。\n' +
      '3. 出于安全考虑，内网和私有地址会被拒绝；管理员可以通过 HTTP_ALLOWLIST 放行可信的内部服务。\n' +
      '提示：给智能体再加上 knowledge_search 工具，就能把网页信息和你自己的文档结合起来。',
  },
  tags: ['agent', 'web', 'research', 'http_fetch', 'browse', '调研', '网页', '搜索'],
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 120 },
        data: {
          label: 'Question',
          config: {
            inputs: [
              {
                name: 'question',
                type: 'string',
                required: true,
                default: 'What is retrieval-augmented generation, and when is it better than fine-tuning?',
                description: 'What to find out',
              },
              {
                name: 'startUrl',
                type: 'string',
                required: false,
                default: 'https://en.wikipedia.org/wiki/Retrieval-augmented_generation',
                description: 'The first page to read',
              },
            ],
          },
        },
      },
      {
        id: 'research',
        type: 'agent',
        position: { x: 280, y: 120 },
        data: {
          label: 'Research agent',
          config: {
            model: 'gpt-4o-mini',
            temperature: 0.2,
            stream: true,
            systemPrompt:
              'You are a careful researcher. Prefer primary sources, say when sources disagree, and never invent ' +
              'a URL.',
            task: TASK_EN,
            tools: ['http_fetch'],
            limits: { maxRounds: 8 },
            memory: { enabled: false },
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 560, y: 120 },
        data: {
          label: 'Answer',
          config: { outputs: [{ name: 'answer', value: '{{research.output.text}}' }] },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'research' },
      { id: 'e2', source: 'research', target: 'end' },
    ],
  },
  zh: {
    labels: { start: '问题', research: '调研智能体', end: '答案' },
    config: {
      start: {
        inputs: [
          {
            name: 'question',
            type: 'string',
            required: true,
            default: '什么是检索增强生成（RAG）？它在什么情况下比微调更合适？',
            description: '要调研的问题',
          },
          {
            name: 'startUrl',
            type: 'string',
            required: false,
            default: 'https://zh.wikipedia.org/wiki/检索增强生成',
            description: '最先读取的网页',
          },
        ],
      },
    },
  },
};
