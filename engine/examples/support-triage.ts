import type { Graph } from '../graph/schema';

/** Urgency words in English and Chinese (RE2 syntax): "urgent", "ASAP", "down" … and 紧急, 加急, 尽快, 宕机 … */
export const URGENT_WORDS =
  '(?i)\\b(urgent|asap|immediately|down|outage)\\b|紧急|加急|尽快|马上|立刻|宕机|崩溃|无法使用';
/** The summary keeps "urgent" (「紧急」 in Chinese) when the customer says so: either word routes to escalation. */
export const URGENT_IN_SUMMARY = '(?i)urgent|紧急';

/**
 * The example seeded on first start: start → llm → condition → two templates → end. Runs offline on the demo model.
 * One graph for English and Chinese messages: the urgency test reads both languages, the summary is written in the
 * message's language, and the fixed replies say the same thing in both.
 */
export const SUPPORT_TRIAGE_EXAMPLE: { name: string; description: string; graph: Graph } = {
  name: 'Support triage (example)',
  description:
    'Summarises a customer message with an LLM, routes urgent messages to escalation and the rest to a standard reply.',
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 120 },
        data: {
          label: 'Customer message',
          config: {
            inputs: [
              {
                name: 'message',
                type: 'string',
                required: true,
                description:
                  'What the customer wrote, in English or Chinese — e.g. "Checkout is down, this is urgent!" or ' +
                  '"支付页面打不开，情况紧急！"',
              },
            ],
          },
        },
      },
      {
        id: 'summarize',
        type: 'llm',
        position: { x: 280, y: 120 },
        data: {
          label: 'Summarize',
          retry: { maxAttempts: 2, backoffMs: 500 },
          config: {
            model: 'gpt-4o-mini',
            temperature: 0.2,
            jsonMode: false,
            stream: true,
            systemPrompt:
              'You are a support assistant. Summarise the customer message in one sentence, in the language of the ' +
              'message. Keep the word "urgent" (「紧急」 in Chinese) if the customer says it is urgent.',
            userPrompt: '{{inputs.message}}',
          },
        },
      },
      {
        id: 'route',
        type: 'condition',
        position: { x: 560, y: 120 },
        data: {
          label: 'Urgent?',
          config: {
            branches: [
              {
                id: 'urgent',
                label: 'urgent',
                logic: 'or',
                conditions: [
                  { left: '{{inputs.message}}', op: 'regex', right: URGENT_WORDS },
                  { left: '{{summarize.output.text}}', op: 'regex', right: URGENT_IN_SUMMARY },
                ],
              },
            ],
          },
        },
      },
      {
        id: 'escalate',
        type: 'template',
        position: { x: 840, y: 40 },
        data: {
          label: 'Escalation',
          config: {
            format: 'text',
            template: 'ESCALATED to on-call / 已升级给值班同事处理。Summary / 摘要：{{summarize.output.text}}',
          },
        },
      },
      {
        id: 'reply',
        type: 'template',
        position: { x: 840, y: 220 },
        data: {
          label: 'Standard reply',
          config: {
            format: 'text',
            template:
              'Thanks for your message — we will get back to you within one business day. / ' +
              '感谢您的留言，我们会在一个工作日内回复您。Summary / 摘要：{{summarize.output.text}}',
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 1120, y: 120 },
        data: {
          label: 'Result',
          config: {
            outputs: [
              { name: 'answer', value: '{{escalate.output.text || reply.output.text}}' },
              { name: 'route', value: '{{route.output.branch}}' },
              { name: 'model', value: '{{summarize.output.providerLabel}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'summarize' },
      { id: 'e2', source: 'summarize', target: 'route' },
      { id: 'e3', source: 'route', sourceHandle: 'urgent', target: 'escalate' },
      { id: 'e4', source: 'route', sourceHandle: 'else', target: 'reply' },
      { id: 'e5', source: 'escalate', target: 'end' },
      { id: 'e6', source: 'reply', target: 'end' },
    ],
  },
};
