/**
 * Twenty support messages (English and Chinese) with the route a good triage takes, for the evaluation tests: the
 * example's urgency words catch sixteen of them; the four that say "right away" or 「今天必须」 need the fix
 * `FIXED_URGENT_WORDS` adds. A third version, `BROKEN_URGENT_WORDS`, matches nothing and sends everything to the
 * standard reply.
 */
import { SUPPORT_TRIAGE_EXAMPLE, URGENT_WORDS } from '@/engine/examples/support-triage';
import type { Graph } from '@/engine/graph/schema';

export const TRIAGE_CASES: Array<{ inputs: { message: string }; expected: { route: string } }> = [
  ['Checkout is down, this is urgent!', 'urgent'],
  ['Our whole site is down since 9am', 'urgent'],
  ['Please help ASAP, customers cannot pay', 'urgent'],
  ['We have an outage in the EU region', 'urgent'],
  ['支付页面打不开，情况紧急！', 'urgent'],
  ['系统宕机了，请尽快处理', 'urgent'],
  ['App 崩溃，用户无法使用', 'urgent'],
  ['订单需要加急处理', 'urgent'],
  ['How do I change my invoice address?', 'else'],
  ['Can I get a copy of last month’s receipt?', 'else'],
  ['What are your opening hours?', 'else'],
  ['Thanks, the new dashboard looks great', 'else'],
  ['请问如何修改发票抬头？', 'else'],
  ['我想了解一下企业版的价格', 'else'],
  ['怎么导出上个月的账单？', 'else'],
  ['你们的客服工作时间是几点？', 'else'],
  ['Refunds are failing for everyone, fix this right away', 'urgent'],
  ['Login is broken for our team, we need it fixed right away', 'urgent'],
  ['今天必须解决登录问题，否则影响发布', 'urgent'],
  ['报表导出失败，今天必须修好', 'urgent'],
].map(([message, route]) => ({ inputs: { message }, expected: { route } }));

/** Rows the example's urgency words miss. */
export const MISSED_BY_THE_EXAMPLE = [16, 17, 18, 19];

export const FIXED_URGENT_WORDS = `${URGENT_WORDS}|(?i)right away|今天必须`;
export const BROKEN_URGENT_WORDS = 'this-matches-nothing-at-all';

/** The example's graph with `words` as the urgency test (and no urgency read from the summary). */
export function triageGraph(words: string = URGENT_WORDS): Graph {
  const graph = structuredClone(SUPPORT_TRIAGE_EXAMPLE.graph);
  const route = graph.nodes.find((n) => n.id === 'route')!;
  const config = route.data.config as { branches: Array<{ conditions: Array<{ right: string }> }> };
  config.branches[0].conditions = [{ ...config.branches[0].conditions[0], right: words }];
  return graph;
}
