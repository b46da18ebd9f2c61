import type { Graph } from '../graph/schema';

/**
 * The second example seeded on first start: a Planner / Worker / Reviewer team whose workers use the calculator and
 * the clock, then an Agent that must ask a person before it saves a memory. Runs offline on the demo model, which
 * plays the team's roles and calls tools by intent (engine/llm/demo-roles.ts, demo-intents.ts).
 */
export const AGENT_TEAM_EXAMPLE: { name: string; description: string; graph: Graph } = {
  name: 'Agent team (example)',
  description:
    'A planner splits the question into steps, workers do them with tools (independent steps in parallel), a ' +
    'reviewer checks each one; then an agent asks you to approve its tool call before it runs.',
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
                required: false,
                default: 'What is 17 * 3 + 1 and what time is it?',
                description: 'What the team should find out',
              },
            ],
          },
        },
      },
      {
        id: 'team',
        type: 'multi_agent',
        position: { x: 280, y: 120 },
        data: {
          label: 'Planner / Worker / Reviewer',
          config: {
            task: '{{inputs.question}}',
            worker: { tools: ['calculator', 'current_time'] },
            maxParallel: 4,
            maxRetries: 1,
            review: true,
          },
        },
      },
      {
        id: 'check',
        type: 'agent',
        position: { x: 560, y: 120 },
        data: {
          label: 'Check with a person',
          config: {
            task: 'What is 6 * 7? The team answered: {{team.output.answer}}',
            tools: ['calculator'],
            toolApproval: ['calculator'],
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
              { name: 'answer', value: '{{team.output.answer}}' },
              { name: 'check', value: '{{check.output.text}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'team' },
      { id: 'e2', source: 'team', target: 'check' },
      { id: 'e3', source: 'check', target: 'end' },
    ],
  },
};
