/**
 * The support-triage workflow and the twenty messages the evaluation journeys on the built app use (acceptance and
 * e2e): a condition sends a message to the urgent branch when it matches `words`, and the End outputs the `route`
 * taken and an `answer` that repeats the message after "Summary:". With `URGENT_WORDS` sixteen of the twenty take
 * the right route; `FIXED_URGENT_WORDS` catches the last four ("right away", 「今天必须」) too; `BROKEN_URGENT_WORDS`
 * matches nothing, so only the eight that should not be escalated are right. No `@/` imports: acceptance tests use it.
 */
export const URGENT_WORDS = '(?i)urgent|asap|down|紧急|宕机';
export const FIXED_URGENT_WORDS = `${URGENT_WORDS}|right away|今天必须`;
export const BROKEN_URGENT_WORDS = 'matches-nothing-at-all';

export const TRIAGE_MESSAGES: Array<[message: string, route: 'urgent' | 'else']> = [
  ['Checkout is down, this is urgent!', 'urgent'],
  ['Please help ASAP, customers cannot pay', 'urgent'],
  ['支付页面打不开，情况紧急！', 'urgent'],
  ['系统宕机了', 'urgent'],
  ['The site is down for everyone', 'urgent'],
  ['Urgent: refunds fail', 'urgent'],
  ['订单需要紧急处理', 'urgent'],
  ['Our API is down again', 'urgent'],
  ['How do I change my invoice address?', 'else'],
  ['What are your opening hours?', 'else'],
  ['请问如何修改发票抬头？', 'else'],
  ['我想了解一下企业版的价格', 'else'],
  ['Thanks, the new dashboard looks great', 'else'],
  ['怎么导出上个月的账单？', 'else'],
  ['Can I get last month’s receipt?', 'else'],
  ['你们的客服工作时间是几点？', 'else'],
  ['Refunds are failing, fix this right away', 'urgent'],
  ['Login is broken, we need it fixed right away', 'urgent'],
  ['今天必须解决登录问题', 'urgent'],
  ['报表导出失败，今天必须修好', 'urgent'],
];
/** The rows `URGENT_WORDS` routes wrong (and `FIXED_URGENT_WORDS` right). */
export const MISSED_BY_URGENT_WORDS = [16, 17, 18, 19];

/** The dataset rows: the message as input, the route as the expectation. */
export const triageRows = () =>
  TRIAGE_MESSAGES.map(([message, route]) => ({ inputs: { message }, expected: { route } }));

const node = (id: string, type: string, config: Record<string, unknown>, x: number) => ({
  id,
  type,
  position: { x, y: 0 },
  data: { label: id, config },
});

/** The triage graph whose condition escalates the messages matching `words`. */
export function triageGraph(words: string) {
  return {
    nodes: [
      node('start', 'start', { inputs: [{ name: 'message', type: 'string', required: true }] }, 0),
      node(
        'route',
        'condition',
        {
          branches: [
            {
              id: 'urgent',
              label: 'urgent',
              logic: 'or',
              conditions: [{ left: '{{inputs.message}}', op: 'regex', right: words }],
            },
          ],
        },
        250,
      ),
      node('escalate', 'template', { format: 'text', template: 'ESCALATED. Summary: {{inputs.message}}' }, 500),
      node('reply', 'template', { format: 'text', template: 'Thanks! Summary: {{inputs.message}}' }, 500),
      node(
        'end',
        'end',
        {
          outputs: [
            { name: 'answer', value: '{{escalate.output.text || reply.output.text}}' },
            { name: 'route', value: '{{route.output.branch}}' },
          ],
        },
        750,
      ),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'route' },
      { id: 'e2', source: 'route', sourceHandle: 'urgent', target: 'escalate' },
      { id: 'e3', source: 'route', sourceHandle: 'else', target: 'reply' },
      { id: 'e4', source: 'escalate', target: 'end' },
      { id: 'e5', source: 'reply', target: 'end' },
    ],
  };
}
