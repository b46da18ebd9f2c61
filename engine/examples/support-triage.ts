import type { Graph } from '../graph/schema';

/** The example seeded on first start: start → llm → condition → two templates → end. Runs offline on the demo model. */
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
            inputs: [{ name: 'message', type: 'string', required: true, description: 'What the customer wrote' }],
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
              'You are a support assistant. Summarise the customer message in one ' +
              'sentence. Keep the word "urgent" if the customer says it is urgent.',
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
                  { left: '{{inputs.message}}', op: 'regex', right: '(?i)\\b(urgent|asap|immediately|down)\\b' },
                  { left: '{{summarize.output.text}}', op: 'contains', right: 'urgent' },
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
          config: { format: 'text', template: 'ESCALATED to on-call. Summary: {{summarize.output.text}}' },
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
              'Thanks for your message — we will get back to you within ' +
              'one business day. Summary: {{summarize.output.text}}',
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
