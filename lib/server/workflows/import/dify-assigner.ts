/**
 * Dify's conversation variables and its Variable Assigner (`assigner`, v1 and v2) → PaiFlow's conversation variables
 * (graph.conversationVariables) and variable_assigner node (issue 45). A Dify chatflow declares typed variables that
 * persist across the turns of a conversation; PaiFlow's chat apps keep them the same way, so `{{#conversation.x#}}`
 * becomes `{{conversation.x}}` and each assigner operation its PaiFlow twin (over-write/set → set, clear, append,
 * extend, remove-first/last, += -= *= /=). What has no twin (a secret variable, an assigner writing a loop's own
 * variables, a constant that does not fit the type) is reported.
 */
import {
  CONVERSATION_VARIABLE_NAME_RE,
  CONVERSATION_VARIABLE_TYPES,
  fitsType,
  MAX_CONVERSATION_VARIABLES,
  type ConversationVariable,
  type ConversationVariableType,
} from '@/engine/template/conversation-variables';
import { answersBefore } from './dify-answers';
import type { DifyContext, DifyNode } from './dify-context';
import type { Converted } from './dify-nodes';
import { refTo } from './dify-nodes';
import { t, type Text } from './report';
import { dicts, list, str } from './values';

/** Dify's operations (v2 `operation`, v1 `write_mode`) → the variable assigner's. */
const OPERATIONS: Record<string, string> = {
  'over-write': 'set',
  set: 'set',
  clear: 'clear',
  append: 'append',
  extend: 'extend',
  'remove-first': 'remove_first',
  'remove-last': 'remove_last',
  '+=': 'add',
  '-=': 'subtract',
  '*=': 'multiply',
  '/=': 'divide',
};
const WITHOUT_VALUE = new Set(['clear', 'remove_first', 'remove_last']);
const ARITHMETIC = new Set(['add', 'subtract', 'multiply', 'divide']);

const isType = (v: string): v is ConversationVariableType =>
  (CONVERSATION_VARIABLE_TYPES as readonly string[]).includes(v);

/** A Dify constant as the declared type reads it (Dify's number fields often hold text). */
function constantAs(type: ConversationVariableType, v: unknown): unknown {
  if (type === 'number' && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (type === 'boolean' && (v === 'true' || v === 'false')) return v === 'true';
  return v;
}

/** Dify's `conversation_variables` as PaiFlow declarations, and what could not be declared (with why). */
export function difyConversationVariables(raw: unknown): { declared: ConversationVariable[]; skipped: Text[] } {
  const declared: ConversationVariable[] = [];
  const skipped: Text[] = [];
  for (const v of dicts(raw)) {
    const name = str(v.name);
    const type = str(v.value_type);
    if (!CONVERSATION_VARIABLE_NAME_RE.test(name) || !isType(type) || declared.some((d) => d.name === name)) {
      skipped.push(
        t(
          `Conversation variable "${name}" (${type || 'no type'}) has no PaiFlow twin and was left out.`,
          `会话变量“${name}”（${type || '无类型'}）在 PaiFlow 中没有对应项，已舍弃。`,
        ),
      );
      continue;
    }
    if (declared.length >= MAX_CONVERSATION_VARIABLES) break;
    const value = constantAs(type, v.value);
    const description = str(v.description).slice(0, 1000);
    declared.push({
      name,
      type,
      ...(value !== undefined && value !== '' && fitsType(type, value) ? { default: value } : {}),
      ...(description ? { description } : {}),
    });
  }
  return { declared, skipped };
}

interface DifyItem {
  target: string[];
  operation: string;
  inputType: 'variable' | 'constant';
  value: unknown;
}

/** The operations of an assigner, v2 (`items`) or v1 (one `assigned_variable_selector` with its `write_mode`). */
function itemsOf(n: DifyNode): DifyItem[] {
  const d = n.data;
  if (Array.isArray(d.items))
    return dicts(d.items).map((i) => ({
      target: list(i.variable_selector).map((s) => str(s)),
      operation: str(i.operation) || str(i.write_mode) || 'over-write',
      inputType: str(i.input_type) === 'constant' ? 'constant' : 'variable',
      value: i.value,
    }));
  return [
    {
      target: list(d.assigned_variable_selector).map((s) => str(s)),
      operation: str(d.write_mode) || 'over-write',
      inputType: 'variable',
      value: d.input_variable_selector,
    },
  ];
}

/** Does the assigner write any declared conversation variable (else it has no PaiFlow twin and is dropped)? */
export function assignsConversation(n: DifyNode, c: Pick<DifyContext, 'conversationVariables'>): boolean {
  return itemsOf(n).some(
    ({ target: [root, name], operation }) =>
      root === 'conversation' && !!OPERATIONS[operation] && c.conversationVariables.some((v) => v.name === name),
  );
}

/**
 * A Dify Variable Assigner → a variable_assigner node (or, when none of its operations maps, a no-op). `endsPath`: no
 * node follows it (a chatflow that answers, then stores what it learnt): PaiFlow answers at an End node, so one
 * follows it, answering what the answers on the way to it said.
 */
export function assigner(n: DifyNode, c: DifyContext, endsPath = false): Converted {
  const operations: Array<Record<string, unknown>> = [];
  const why: Text[] = [];
  const skip = (text: Text) => why.push(text);
  itemsOf(n).forEach((item, i) => {
    const [root, name] = item.target;
    const decl = root === 'conversation' ? c.conversationVariables.find((v) => v.name === name) : undefined;
    const operation = OPERATIONS[item.operation];
    if (!decl || !operation) {
      skip(
        t(
          `Operation ${i + 1} (${item.operation} on ${item.target.join('.')}) was left out: PaiFlow assigns only ` +
            'declared conversation variables.',
          `第 ${i + 1} 个操作（对 ${item.target.join('.')} 的 ${item.operation}）已舍弃：PaiFlow 只能给已声明的会话变量赋值。`,
        ),
      );
      return;
    }
    if (WITHOUT_VALUE.has(operation)) {
      operations.push({ variable: decl.name, operation });
      return;
    }
    const want: ConversationVariableType = ARITHMETIC.has(operation)
      ? 'number'
      : operation === 'append'
        ? (decl.type.slice(6, -1) as ConversationVariableType)
        : decl.type;
    const value = item.inputType === 'constant' ? constantAs(want, item.value) : refTo(c, item.value);
    if (value === '' || (item.inputType === 'constant' && !fitsType(want, value))) {
      skip(
        t(
          `Operation ${i + 1} on "${decl.name}" was left out: its value is not a ${want}.`,
          `对“${decl.name}”的第 ${i + 1} 个操作已舍弃：它的值不是 ${want}。`,
        ),
      );
      return;
    }
    operations.push({ variable: decl.name, operation, value });
  });
  if (!operations.length) {
    c.add(n, 'template', { template: '', format: 'text' });
    return {
      outcome: 'approximated',
      why: [
        ...why,
        t(
          'None of its operations maps: an empty Template node holds its place.',
          '没有可转换的操作：以空模板节点占位。',
        ),
      ],
    };
  }
  const node = c.add(n, 'variable_assigner', { operations });
  const done = t(
    "A Variable assigner on the conversation's variables, which PaiFlow keeps across the turns of a chat.",
    '变量赋值节点，作用于会话变量；PaiFlow 在聊天的各轮之间保存这些变量。',
  );
  const extra = endsPath ? [endAfter(c, n, node.id)] : [];
  if (extra.length)
    why.push(
      t(
        'The path ended here: an End node after it answers what the answers on the way here said.',
        '路径在此结束：其后添加的结束节点输出途经的各个回复。',
      ),
    );
  return { outcome: why.length > extra.length ? 'approximated' : 'mapped', why: [done, ...why], extra };
}

/** An End node after the assigner `id`, whose `answer` is the chatflow's answers on the way to it. */
function endAfter(c: DifyContext, n: DifyNode, id: string): string {
  const before = answersBefore(c, n.id).map((s) => `{{${c.idOf.get(s)}.output.text}}`);
  const at = c.positionOf(n);
  const end = c.g.newId(`end_after_${id}`, 'end');
  c.g.addNode({
    id: end,
    type: 'end',
    position: { x: at.x + 300, y: at.y },
    data: { label: 'End', config: { outputs: [{ name: 'answer', value: before.join('') }] } },
  });
  c.g.addEdge(id, end);
  return end;
}
