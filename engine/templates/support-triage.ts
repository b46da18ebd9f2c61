import { SUPPORT_TRIAGE_EXAMPLE } from '../examples/support-triage';
import type { Graph } from '../graph/schema';
import type { WorkflowTemplate } from './types';

/**
 * The seeded support-triage example as a template: the same graph (its urgency test and summary already read English
 * and Chinese), with a default message so a first run needs no typing, and replies in one language per copy (the
 * example's fixed replies are bilingual; here `zh` has the Chinese ones).
 */
function triageGraph(): Graph {
  const graph = structuredClone(SUPPORT_TRIAGE_EXAMPLE.graph);
  for (const node of graph.nodes) {
    if (node.id === 'start')
      node.data.config = {
        inputs: [
          {
            name: 'message',
            type: 'string',
            required: true,
            default: 'Our checkout page is down and customers cannot pay. This is urgent!',
            description: 'What the customer wrote',
          },
        ],
      };
    if (node.id === 'escalate')
      node.data.config = { format: 'text', template: 'ESCALATED to on-call. Summary: {{summarize.output.text}}' };
    if (node.id === 'reply')
      node.data.config = {
        format: 'text',
        template:
          'Thanks for your message — we will get back to you within one business day. ' +
          'Summary: {{summarize.output.text}}',
      };
  }
  return graph;
}

export const SUPPORT_TRIAGE_TEMPLATE: WorkflowTemplate = {
  id: 'support-triage',
  category: 'support',
  name: { en: 'Support ticket triage', zh: '客服工单分流' },
  description: {
    en: 'Summarises a customer message, sends urgent ones to escalation and answers the rest with a standard reply.',
    zh: '自动总结客户留言：紧急问题转人工升级处理，其余问题用标准话术回复。',
  },
  howTo: {
    en:
      '1. Run it with a customer message (a sample is filled in).\n' +
      '2. Edit the "Urgent?" condition to match your own urgency words, and the two reply templates to your tone.\n' +
      '3. To triage real tickets, publish it and call its API, or add a webhook trigger from your help desk.',
    zh:
      '1. 直接运行即可看到效果（已预填一条示例留言）。\n' +
      '2. 在「是否紧急？」条件节点里改成你们自己的紧急关键词，并按品牌语气修改两段回复模板。\n' +
      '3. 对接真实工单：发布后调用它的 API，或在触发器中添加 Webhook，由工单系统推送留言。',
  },
  tags: ['triage', 'routing', 'condition', 'helpdesk', '工单', '分流', '客服'],
  graph: triageGraph(),
  zh: {
    labels: {
      start: '客户留言',
      summarize: '总结留言',
      route: '是否紧急？',
      escalate: '升级处理',
      reply: '标准回复',
      end: '结果',
    },
    branches: { route: { urgent: '紧急' } },
    config: {
      start: {
        inputs: [
          {
            name: 'message',
            type: 'string',
            required: true,
            default: '我们的支付页面打不开，客户都没法付款，情况很紧急！',
            description: '客户发来的内容',
          },
        ],
      },
      escalate: { format: 'text', template: '已升级给值班同事处理。摘要：{{summarize.output.text}}' },
      reply: {
        format: 'text',
        template: '感谢您的留言，我们会在一个工作日内回复您。摘要：{{summarize.output.text}}',
      },
    },
  },
};
