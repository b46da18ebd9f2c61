import type { WorkflowTemplate } from './types';

/**
 * The starting point of a chat app (publish it, then turn on Chat in the Publish panel): a knowledge node finds
 * passages for the message, and an LLM node answers from them with the conversation's earlier turns (the Start input
 * `history`, which the chat app fills with `[{ role, content }]`) sent before the message, so a follow-up question
 * ("and for a gift?") is understood. The answer cites [n]; the chat page shows those as chips with their sources. The
 * knowledge base is left open, like the Q&A template's: POST /api/workflows picks the workspace's one.
 */
export const CHAT_ASSISTANT_TEMPLATE: WorkflowTemplate = {
  id: 'chat-assistant',
  category: 'knowledge',
  name: { en: 'Chat assistant', zh: '聊天助手' },
  description: {
    en:
      'A chat app on your documents: answers with citations and remembers the conversation. Publish it to get a ' +
      'chat page and a website bubble.',
    zh: '基于你的文档的聊天应用：回答附带引用，并记得对话上下文。发布后即可获得聊天页面和网站聊天气泡。',
  },
  howTo: {
    en:
      '1. Create a knowledge base under Knowledge bases, upload your documents, and choose it in the ' +
      '"Search documents" node.\n' +
      '2. Publish the workflow, then turn on "Chat app" in the Publish panel (public, or behind an access code).\n' +
      '3. Open the chat page, or paste the embed <script> into your website to get a chat bubble.\n' +
      'The "history" input carries the earlier turns; the answer node sends them before the new message.',
    zh:
      '1. 在「知识库」中新建知识库并上传文档，然后在「检索文档」节点中选择它。\n' +
      '2. 发布工作流，然后在发布面板中开启「聊天应用」（公开，或需要访问码）。\n' +
      '3. 打开聊天页面，或把嵌入用的 <script> 粘贴到你的网站，即可出现聊天气泡。\n' +
      '输入 history 携带之前的对话轮次；回答节点会把它们放在新消息之前发送给模型。',
  },
  tags: ['chat', 'chatbot', 'RAG', 'history', 'embed', '聊天', '客服', '机器人'],
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 120 },
        data: {
          label: 'Message',
          config: {
            inputs: [
              {
                name: 'message',
                type: 'string',
                required: true,
                default: 'How long do customers have to return an item?',
                description: 'What the user said',
              },
              {
                name: 'history',
                type: 'array',
                required: false,
                default: [],
                description: 'The earlier turns of the conversation: [{ role, content }]',
              },
            ],
          },
        },
      },
      {
        id: 'kb',
        type: 'knowledge',
        position: { x: 280, y: 120 },
        data: {
          label: 'Search documents',
          config: { knowledgeBaseId: '', query: '{{inputs.message}}', topK: 4, mode: 'hybrid' },
        },
      },
      {
        id: 'answer',
        type: 'llm',
        position: { x: 560, y: 120 },
        data: {
          label: 'Answer',
          config: {
            model: 'gpt-4o-mini',
            temperature: 0.3,
            stream: true,
            systemPrompt:
              'You are a friendly assistant for the team. Answer from the context below when it helps, citing ' +
              'sources as [n]; use the earlier turns of the conversation to understand follow-up questions. Reply ' +
              'in the language of the message.\n\nContext:\n{{kb.output.context}}',
            userPrompt: '{{inputs.message}}',
            history: '{{inputs.history}}',
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 840, y: 120 },
        data: {
          label: 'Reply',
          config: {
            outputs: [
              { name: 'answer', value: '{{answer.output.text}}' },
              { name: 'sources', value: '{{kb.output.hits}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'kb' },
      { id: 'e2', source: 'kb', target: 'answer' },
      { id: 'e3', source: 'answer', target: 'end' },
    ],
  },
  zh: {
    labels: { start: '消息', kb: '检索文档', answer: '回答', end: '回复' },
    config: {
      start: {
        inputs: [
          {
            name: 'message',
            type: 'string',
            required: true,
            default: '顾客退货的期限是多久？',
            description: '用户说的话',
          },
          {
            name: 'history',
            type: 'array',
            required: false,
            default: [],
            description: '之前的对话轮次：[{ role, content }]',
          },
        ],
      },
    },
  },
};
