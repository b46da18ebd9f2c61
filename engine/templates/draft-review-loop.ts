import type { WorkflowTemplate } from './types';

/**
 * Draft → review → revise, as a cycle (so the LangGraph engine runs it): the writer drafts, the reviewer answers
 * "VERDICT: APPROVED" or "VERDICT: REVISE" with fixes, and the condition sends the draft back until it is approved
 * or three rounds have passed. The round count is a tally the `rounds` template node grows by one "I" per pass
 * (it reads its own previous output), because a condition cannot count; the offline demo model never approves, so
 * offline the loop visibly runs all three rounds and ends.
 */
export const DRAFT_REVIEW_LOOP_TEMPLATE: WorkflowTemplate = {
  id: 'draft-review-loop',
  category: 'writing',
  name: { en: 'Draft → review loop', zh: '写作与审稿循环' },
  description: {
    en:
      'A writer drafts, a reviewer approves or asks for fixes, and the draft goes back for revision — up to 3 ' +
      'rounds.',
    zh: '写手起草，审稿人给出通过或修改意见，未通过就退回修改，最多循环 3 轮。',
  },
  howTo: {
    en:
      '1. Run it with a topic (a sample is filled in) and watch the draft go round the loop in the trace.\n' +
      '2. Put your style guide into the reviewer\'s system prompt; it must start its reply with "VERDICT: APPROVED" ' +
      'or "VERDICT: REVISE".\n' +
      '3. For more rounds, change I{3} in the "Approved or 3 rounds?" condition (e.g. I{5} for five).\n' +
      'It runs on the LangGraph engine because the graph has a cycle.',
    zh:
      '1. 输入主题运行（已预填示例），在运行轨迹里可以看到稿件一轮轮往返修改。\n' +
      '2. 把你们的写作规范写进审稿人的系统提示词；审稿人的回复必须以「VERDICT: APPROVED」或「VERDICT: REVISE」开头。\n' +
      '3. 想多改几轮，把「通过或已满 3 轮？」条件里的 I{3} 改成 I{5} 等即可。\n' +
      '流程中有回环，因此使用 LangGraph 引擎运行。',
  },
  tags: ['loop', 'review', 'revise', 'LangGraph', 'cycle', '循环', '审稿', '改写'],
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 140 },
        data: {
          label: 'Topic',
          config: {
            inputs: [
              {
                name: 'topic',
                type: 'string',
                required: true,
                default: 'Why every team should write short design docs',
                description: 'What to write about',
              },
            ],
          },
        },
      },
      {
        id: 'draft',
        type: 'llm',
        position: { x: 260, y: 140 },
        data: {
          label: 'Write draft',
          config: {
            model: 'gpt-4o-mini',
            temperature: 0.7,
            stream: true,
            systemPrompt:
              'You are a writer. Write a short, clear piece (under 200 words) about the topic. If there is ' +
              'reviewer feedback, rewrite the previous draft to address every point. Write in the language of ' +
              'the topic and reply with the text only.',
            userPrompt:
              'Topic: {{inputs.topic}}\n\nPrevious draft:\n{{draft.output.text || "(none yet)"}}\n\n' +
              'Reviewer feedback:\n{{review.output.text || "(none yet)"}}',
          },
        },
      },
      {
        id: 'review',
        type: 'llm',
        position: { x: 520, y: 140 },
        data: {
          label: 'Review',
          config: {
            model: 'gpt-4o-mini',
            temperature: 0.2,
            stream: true,
            systemPrompt:
              'You are a strict editor. Start your reply with exactly one line: "VERDICT: APPROVED" if the draft ' +
              'is ready to publish, or "VERDICT: REVISE" followed by a numbered list of concrete fixes. Write the ' +
              'fixes in the language of the draft.',
            userPrompt: 'Topic: {{inputs.topic}}\n\nDraft:\n{{draft.output.text}}',
          },
        },
      },
      {
        id: 'rounds',
        type: 'template',
        position: { x: 780, y: 140 },
        data: { label: 'Count rounds', config: { format: 'text', template: '{{rounds.output.text}}I' } },
      },
      {
        id: 'done',
        type: 'condition',
        position: { x: 1040, y: 140 },
        data: {
          label: 'Approved or 3 rounds?',
          config: {
            branches: [
              {
                id: 'finish',
                label: 'finish',
                logic: 'or',
                conditions: [
                  { left: '{{review.output.text}}', op: 'regex', right: '(?i)VERDICT:\\W*APPROVED' },
                  { left: '{{rounds.output.text}}', op: 'regex', right: '^I{3}' },
                ],
              },
            ],
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 1300, y: 140 },
        data: {
          label: 'Final text',
          config: {
            outputs: [
              { name: 'text', value: '{{draft.output.text}}' },
              { name: 'review', value: '{{review.output.text}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'draft' },
      { id: 'e2', source: 'draft', target: 'review' },
      { id: 'e3', source: 'review', target: 'rounds' },
      { id: 'e4', source: 'rounds', target: 'done' },
      { id: 'e5', source: 'done', sourceHandle: 'finish', target: 'end' },
      { id: 'e6', source: 'done', sourceHandle: 'else', target: 'draft' },
    ],
  },
  zh: {
    labels: {
      start: '主题',
      draft: '撰写初稿',
      review: '审稿',
      rounds: '计数轮次',
      done: '通过或已满 3 轮？',
      end: '定稿',
    },
    branches: { done: { finish: '完成' } },
    config: {
      start: {
        inputs: [
          {
            name: 'topic',
            type: 'string',
            required: true,
            default: '为什么每个团队都应该写简短的设计文档',
            description: '要写的主题',
          },
        ],
      },
    },
  },
};
