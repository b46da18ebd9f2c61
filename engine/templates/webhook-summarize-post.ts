import type { WorkflowTemplate } from './types';

/**
 * Webhook → summarise → HTTP POST. The Start inputs are what a webhook trigger maps its request to
 * (lib/server/triggers/: `text` ← `{{body.text}}`); the summary is POSTed as JSON to `callbackUrl`, an input so that
 * each trigger (or test) says where, with the run's idempotency key so a retried POST can be deduplicated.
 */
export const WEBHOOK_SUMMARIZE_POST_TEMPLATE: WorkflowTemplate = {
  id: 'webhook-summarize-post',
  category: 'automation',
  name: { en: 'Webhook → summarise → post', zh: 'Webhook 接收 → 摘要 → 推送' },
  description: {
    en: 'Receives text from a webhook, summarises it with an LLM and POSTs the summary to a chat channel or an API.',
    zh: '通过 Webhook 接收文本，用大模型生成摘要，再把摘要 POST 到群聊机器人或任意接口。',
  },
  howTo: {
    en:
      '1. Publish the workflow (webhook triggers run the published version).\n' +
      '2. Open Triggers → New webhook. Map text to {{body.text}} (or the field your sender uses) and callbackUrl to ' +
      'your receiver, e.g. a Slack incoming-webhook URL.\n' +
      "3. Send the curl example the panel shows; the run appears in the trigger's history.\n" +
      'Feishu, DingTalk and WeCom bots expect their own JSON: adapt the body of the "Post summary" node.',
    zh:
      '1. 先发布工作流（Webhook 触发器运行的是已发布的版本）。\n' +
      '2. 打开「触发器 → 新建 Webhook」，把 text 映射为 {{body.text}}（或发送方实际使用的字段），callbackUrl 填接收方地址，' +
      '例如飞书、钉钉或企业微信群机器人的 Webhook 地址。\n' +
      '3. 用面板里给出的 curl 示例发一次请求，即可在触发器的运行记录中看到这次运行。\n' +
      '注意：飞书、钉钉、企业微信机器人要求各自的 JSON 格式（如飞书需要 msg_type 字段），请相应修改「推送摘要」节点的请求体。',
  },
  tags: ['webhook', 'trigger', 'summary', 'HTTP', 'Slack', '飞书', '钉钉', '企业微信', '摘要', '推送'],
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 120 },
        data: {
          label: 'Webhook payload',
          config: {
            inputs: [
              {
                name: 'text',
                type: 'string',
                required: true,
                default:
                  'Incident report: between 09:10 and 09:40 UTC the payment API returned errors for about 8% of ' +
                  'requests after a config change. The change was rolled back at 09:38; no data was lost. Follow-up: ' +
                  'add a canary step to config deploys (owner: Dana, due Friday).',
                description: 'The text to summarise (a webhook trigger maps it, e.g. from the text field of the body)',
              },
              {
                name: 'callbackUrl',
                type: 'string',
                required: true,
                description: 'Where the summary is POSTed (a chat bot webhook or your API)',
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
          label: 'Summarise',
          config: {
            model: 'gpt-4o-mini',
            temperature: 0.2,
            stream: true,
            systemPrompt:
              'Summarise the text for a chat channel in at most three short bullet points. Keep names, numbers, ' +
              'dates and owners. Reply in the language of the text, with the bullet points only.',
            userPrompt: '{{inputs.text}}',
          },
        },
      },
      {
        id: 'post',
        type: 'http',
        position: { x: 560, y: 120 },
        data: {
          label: 'Post summary',
          retry: { maxAttempts: 3, backoffMs: 1000 },
          config: {
            method: 'POST',
            url: '{{inputs.callbackUrl}}',
            bodyType: 'json',
            body: '{"text": "{{summarize.output.text}}", "source": "paiflow"}',
            timeoutMs: 15000,
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 840, y: 120 },
        data: {
          label: 'Result',
          config: {
            outputs: [
              { name: 'summary', value: '{{summarize.output.text}}' },
              { name: 'status', value: '{{post.output.status}}' },
            ],
          },
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'summarize' },
      { id: 'e2', source: 'summarize', target: 'post' },
      { id: 'e3', source: 'post', target: 'end' },
    ],
  },
  zh: {
    labels: { start: 'Webhook 数据', summarize: '生成摘要', post: '推送摘要', end: '结果' },
    config: {
      start: {
        inputs: [
          {
            name: 'text',
            type: 'string',
            required: true,
            default:
              '故障通报：UTC 09:10 至 09:40，一次配置变更导致支付接口约 8% 的请求报错。09:38 已回滚变更，未丢失数据。' +
              '后续改进：配置发布增加灰度步骤（负责人：王芳，周五前完成）。',
            description: '要摘要的文本（由 Webhook 触发器映射，例如请求体中的 text 字段）',
          },
          {
            name: 'callbackUrl',
            type: 'string',
            required: true,
            description: '摘要 POST 到的地址（群机器人 Webhook 或你的接口）',
          },
        ],
      },
    },
  },
};
