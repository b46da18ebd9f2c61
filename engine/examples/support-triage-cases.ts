/**
 * The dataset seeded beside the Support triage example (issue 36): eight messages in English and Chinese with the
 * route a good triage takes. Three are there to fail on the example as it ships, so its first evaluation shows what
 * an evaluation is for: "right away" and 「今天必须」 are urgent words it does not know, and a customer who says
 * "down" while saying there is no rush is not urgent. Scored by `exact` on the `route` output, offline.
 */
import type { DatasetRow } from '../store/datasets';

export const SUPPORT_TRIAGE_CASES = {
  name: 'Support triage cases (example)',
  description:
    'Eight customer messages with the route they should take. Evaluate the Support triage example on them with an ' +
    '"exact" scorer on the route output; three rows fail until its urgency test is improved.',
  rows: [
    { inputs: { message: 'Checkout is down, this is urgent!' }, expected: { route: 'urgent' }, tags: ['en'] },
    { inputs: { message: '支付页面打不开，情况紧急！' }, expected: { route: 'urgent' }, tags: ['zh'] },
    { inputs: { message: 'How do I change my invoice address?' }, expected: { route: 'else' }, tags: ['en'] },
    { inputs: { message: '请问如何修改发票抬头？' }, expected: { route: 'else' }, tags: ['zh'] },
    { inputs: { message: 'Our API is returning 500s, please look ASAP' }, expected: { route: 'urgent' }, tags: ['en'] },
    {
      inputs: { message: 'Refunds are failing for every customer, fix this right away' },
      expected: { route: 'urgent' },
      tags: ['en', 'known-gap'],
    },
    {
      inputs: { message: '报表导出失败，今天必须修好' },
      expected: { route: 'urgent' },
      tags: ['zh', 'known-gap'],
    },
    {
      inputs: { message: 'Is your status page down or is it my network? No rush, just curious.' },
      expected: { route: 'else' },
      tags: ['en', 'known-gap'],
    },
  ] satisfies DatasetRow[],
};
