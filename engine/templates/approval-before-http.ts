import type { WorkflowTemplate } from './types';

/**
 * Human approval before a write: an LLM turns the request into a JSON body, a human-input node shows it and waits
 * (the run is `waiting`), and only an approval lets the HTTP node POST it; a rejection ends the run with a note
 * instead. The human-input node makes the LangGraph engine run it (pause and resume through a checkpoint).
 */
export const APPROVAL_BEFORE_HTTP_TEMPLATE: WorkflowTemplate = {
  id: 'approval-before-http',
  category: 'automation',
  name: { en: 'Human approval before an API write', zh: '人工审批后再调用接口' },
  description: {
    en: 'An LLM prepares a change, a person approves or rejects it, and only approved changes are sent to the API.',
    zh: '大模型先拟好变更内容，由人工审批；只有审批通过的变更才会真正发送到接口。',
  },
  howTo: {
    en:
      '1. Set targetUrl to the API that should receive the change (add a credential on the "Send change" node if it ' +
      'needs authentication).\n' +
      '2. Run it: the run waits at "Approve?" and shows the prepared body. Approve to send it, Reject to cancel.\n' +
      '3. Runs waiting for an answer are listed in Runs; they keep waiting across restarts.',
    zh:
      '1. 把 targetUrl 设为接收变更的接口地址（如需鉴权，在「发送变更」节点上选择凭据）。\n' +
      '2. 运行后流程会停在「是否批准？」，并展示拟好的请求内容。点「批准」即发送，点「拒绝」则取消。\n' +
      '3. 等待审批的运行会列在「运行记录」中，服务重启后依然保持等待状态。',
  },
  tags: ['approval', 'human-in-the-loop', 'HTTP', 'write', 'review', '审批', '人工确认', '接口'],
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 140 },
        data: {
          label: 'Change request',
          config: {
            inputs: [
              {
                name: 'request',
                type: 'string',
                required: true,
                default: 'Change the shipping address of order 1042 to 5 Harbour Street, Leith.',
                description: 'The change to make, in plain words',
              },
              {
                name: 'targetUrl',
                type: 'string',
                required: true,
                description: 'The API that receives the approved change (POST)',
              },
            ],
          },
        },
      },
      {
        id: 'prepare',
        type: 'llm',
        position: { x: 260, y: 140 },
        data: {
          label: 'Prepare change',
          config: {
            model: 'gpt-4o-mini',
            temperature: 0,
            jsonMode: true,
            stream: false,
            systemPrompt:
              'Turn the change request into the JSON body of an API call: an object with "action", "target" and ' +
              '"fields". Reply with the JSON object only.',
            userPrompt: '{{inputs.request}}',
          },
        },
      },
      {
        id: 'approve',
        type: 'human_input',
        position: { x: 520, y: 140 },
        data: {
          label: 'Approve?',
          config: {
            prompt:
              'Send this change to {{inputs.targetUrl}}?\n\nRequest: {{inputs.request}}\n\nBody:\n' +
              '{{prepare.output.text}}\n\nApprove to send it, Reject to cancel.',
            answerType: 'boolean',
          },
        },
      },
      {
        id: 'decide',
        type: 'condition',
        position: { x: 780, y: 140 },
        data: {
          label: 'Approved?',
          config: {
            branches: [
              {
                id: 'approved',
                label: 'approved',
                logic: 'and',
                conditions: [{ left: '{{approve.output.answer}}', op: 'eq', right: 'true', valueType: 'boolean' }],
              },
            ],
          },
        },
      },
      {
        id: 'send',
        type: 'http',
        position: { x: 1040, y: 60 },
        data: {
          label: 'Send change',
          config: {
            method: 'POST',
            url: '{{inputs.targetUrl}}',
            bodyType: 'json',
            body: '{"change": "{{prepare.output.json}}", "request": "{{inputs.request}}", "approved": true}',
            timeoutMs: 15000,
          },
        },
      },
      {
        id: 'cancelled',
        type: 'template',
        position: { x: 1040, y: 220 },
        data: {
          label: 'Not sent',
          config: { format: 'text', template: 'Not sent: the change was not approved.' },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 1300, y: 140 },
        data: {
          label: 'Result',
          config: {
            outputs: [
              { name: 'sent', value: '{{approve.output.answer}}' },
              { name: 'status', value: '{{send.output.status || cancelled.output.text}}' },
              { name: 'change', value: '{{prepare.output.json}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'prepare' },
      { id: 'e2', source: 'prepare', target: 'approve' },
      { id: 'e3', source: 'approve', target: 'decide' },
      { id: 'e4', source: 'decide', sourceHandle: 'approved', target: 'send' },
      { id: 'e5', source: 'decide', sourceHandle: 'else', target: 'cancelled' },
      { id: 'e6', source: 'send', target: 'end' },
      { id: 'e7', source: 'cancelled', target: 'end' },
    ],
  },
  zh: {
    labels: {
      start: '变更请求',
      prepare: '拟定变更',
      approve: '是否批准？',
      decide: '已批准？',
      send: '发送变更',
      cancelled: '未发送',
      end: '结果',
    },
    branches: { decide: { approved: '已批准' } },
    config: {
      start: {
        inputs: [
          {
            name: 'request',
            type: 'string',
            required: true,
            default: '把订单 1042 的收货地址改为上海市浦东新区世纪大道 100 号。',
            description: '要做的变更（用自然语言描述）',
          },
          {
            name: 'targetUrl',
            type: 'string',
            required: true,
            description: '接收已批准变更的接口地址（POST）',
          },
        ],
      },
      approve: {
        prompt:
          '是否把这项变更发送到 {{inputs.targetUrl}}？\n\n请求：{{inputs.request}}\n\n请求体：\n' +
          '{{prepare.output.text}}\n\n点「批准」即发送，点「拒绝」则取消。',
        answerType: 'boolean',
      },
      cancelled: { format: 'text', template: '未发送：该变更没有通过审批。' },
    },
  },
};
