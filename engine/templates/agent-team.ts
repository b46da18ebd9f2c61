import { AGENT_TEAM_EXAMPLE } from '../examples/agent-team';
import type { Graph, GraphNode } from '../graph/schema';
import type { WorkflowTemplate } from './types';

/** A node of the seeded agent-team example, copied. */
function exampleNode(id: string): GraphNode {
  const node = AGENT_TEAM_EXAMPLE.graph.nodes.find((n) => n.id === id);
  if (!node) throw new Error(`the agent-team example has no node "${id}"`);
  return structuredClone(node);
}

/**
 * The seeded agent-team example's question and Planner / Worker / Reviewer node, ending with the team's answer and
 * plan. The example's last step (an agent that waits for a person to approve its tool call) is left out: approval
 * has a template of its own, and a team template should finish on its own.
 */
function teamGraph(): Graph {
  return {
    nodes: [
      exampleNode('start'),
      exampleNode('team'),
      {
        id: 'end',
        type: 'end',
        position: { x: 560, y: 120 },
        data: {
          label: 'Answer',
          config: {
            outputs: [
              { name: 'answer', value: '{{team.output.answer}}' },
              { name: 'plan', value: '{{team.output.plan}}' },
              { name: 'steps', value: '{{team.output.steps}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'team' },
      { id: 'e2', source: 'team', target: 'end' },
    ],
  };
}

export const AGENT_TEAM_TEMPLATE: WorkflowTemplate = {
  id: 'agent-team',
  category: 'agents',
  name: { en: 'Planner / Workers / Reviewer team', zh: '多智能体协作：规划 · 执行 · 审核' },
  description: {
    en:
      'A planner splits the task into steps, workers do them with tools (in parallel where they can), a ' +
      'reviewer checks each.',
    zh: '规划者把任务拆成步骤，执行者调用工具完成（能并行的同时做），审核者逐步把关，最后汇总成答案。',
  },
  howTo: {
    en:
      "1. Run it with the sample question and open the trace: the plan, each worker's tool calls and the reviews.\n" +
      '2. Select the team node to give workers more tools (http_fetch, knowledge_search, MCP tools …) and to set a ' +
      'model per role.\n' +
      '3. maxParallel limits how many steps run at once; maxRetries is how often a rejected step is redone.',
    zh:
      '1. 用示例问题运行，打开运行轨迹查看：计划、每个执行者的工具调用，以及审核意见。\n' +
      '2. 选中团队节点，可以给执行者增加工具（http_fetch、knowledge_search、MCP 工具等），也可以为每个角色单独指定模型。\n' +
      '3. maxParallel 控制同时执行的步骤数；maxRetries 是被审核驳回的步骤最多重做几次。',
  },
  tags: ['multi-agent', 'planner', 'worker', 'reviewer', 'tools', '多智能体', '规划', '审核'],
  graph: teamGraph(),
  zh: {
    labels: { start: '问题', team: '规划 / 执行 / 审核', end: '答案' },
    config: {
      start: {
        inputs: [
          {
            name: 'question',
            type: 'string',
            required: false,
            default: '17 * 3 + 1 等于多少？现在几点了？',
            description: '要让团队查明的问题',
          },
        ],
      },
    },
  },
};
