import type { WorkflowTemplate } from './types';

const FALLBACK_EN = 'I could not find an answer to that in the knowledge base.';
const FALLBACK_ZH = '知识库中没有找到这个问题的答案。';

/**
 * Retrieval-augmented Q&A: knowledge node → grounded LLM that cites [n] → answer plus the hits as sources.
 * The knowledge base is left empty on purpose: it is the user's own documents, so the how-to sends them to pick one
 * (POST /api/workflows fills it in when the workspace has exactly one). With no passages found the LLM node answers
 * the fallback sentence without calling a model, so an empty knowledge base still runs to `succeeded`.
 */
export const RAG_QA_TEMPLATE: WorkflowTemplate = {
  id: 'rag-qa',
  category: 'knowledge',
  name: { en: 'Knowledge base Q&A with citations', zh: '知识库问答（带引用）' },
  description: {
    en: 'Answers questions only from your documents and cites every source as [n]; says so when nothing was found.',
    zh: '只根据你的文档回答问题，并以 [n] 标注每条出处；找不到答案时如实说明，不胡编。',
  },
  howTo: {
    en:
      '1. Create a knowledge base under Knowledge bases and upload your documents (PDF, Word, Markdown, CSV …).\n' +
      '2. Select the "Search knowledge base" node and choose that knowledge base.\n' +
      '3. Run with a question. The answer cites [n]; the "sources" output lists the passages behind each number.\n' +
      'Tip: lower topK for shorter prompts, or switch the search mode to bm25 for exact terms and product codes.',
    zh:
      '1. 在「知识库」中新建知识库并上传文档（支持 PDF、Word、Markdown、CSV 等）。\n' +
      '2. 选中「检索知识库」节点，选择刚才的知识库。\n' +
      '3. 输入问题运行。回答会用 [n] 标注出处，输出中的 sources 列出每个编号对应的原文片段。\n' +
      '提示：调低 topK 可缩短提示词；检索型号、编号等精确词时，可把检索模式改为 bm25。',
  },
  tags: ['RAG', 'retrieval', 'citations', 'documents', '检索', '引用', '文档问答'],
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
                default: 'How long do customers have to return an item?',
                description: 'What to ask your documents',
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
          label: 'Search knowledge base',
          config: { knowledgeBaseId: '', query: '{{inputs.question}}', topK: 5, mode: 'hybrid' },
        },
      },
      {
        id: 'answer',
        type: 'llm',
        position: { x: 560, y: 120 },
        data: {
          label: 'Answer with citations',
          config: {
            model: 'gpt-4o-mini',
            temperature: 0.1,
            stream: true,
            systemPrompt:
              'You answer questions from the documents of the team. Be concise and factual. Reply in the ' +
              'language of the question.',
            userPrompt: '{{inputs.question}}',
            grounding: { enabled: true, context: '{{kb.output.context}}', fallback: FALLBACK_EN },
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 840, y: 120 },
        data: {
          label: 'Answer',
          config: {
            outputs: [
              { name: 'answer', value: '{{answer.output.text}}' },
              { name: 'sources', value: '{{kb.output.hits}}' },
              { name: 'found', value: '{{answer.output.contextFound}}' },
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
    labels: { start: '问题', kb: '检索知识库', answer: '带引用回答', end: '回答' },
    config: {
      start: {
        inputs: [
          {
            name: 'question',
            type: 'string',
            required: true,
            default: '顾客退货的期限是多久？',
            description: '要向文档提出的问题',
          },
        ],
      },
      answer: {
        grounding: { enabled: true, context: '{{kb.output.context}}', fallback: FALLBACK_ZH },
      },
    },
  },
};
