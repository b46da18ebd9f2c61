/**
 * What converting one Dify workflow needs to know while it goes node by node: the source nodes, the PaiFlow id each
 * became, the start inputs that Dify's system, environment and conversation variables turn into, and where each
 * node's values are found in PaiFlow (the reference path of a selector).
 */
import type { ConversationVariable } from '@/engine/template/conversation-variables';
import { GraphBuilder, label, positionOf, type ImportedNode } from './graph-builder';
import type { DifyRefs, Selector } from './dify-refs';
import { identifier, joinPath } from './refs';
import { ReportBuilder, t, type Text } from './report';

export interface DifyNode {
  id: string;
  type?: string;
  parentId?: string;
  position?: unknown;
  positionAbsolute?: unknown;
  data: Record<string, unknown> & { type?: string; title?: string | null };
}

export interface StartInput {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'object' | 'array';
  required: boolean;
  description?: string;
  default?: unknown;
}

export type DifyMode = 'workflow' | 'advanced-chat';

/** Dify system variables and the start input each becomes. */
const SYS_INPUTS: Record<string, Pick<StartInput, 'name' | 'type'>> = {
  query: { name: 'query', type: 'string' },
  files: { name: 'files', type: 'array' },
  user_id: { name: 'user_id', type: 'string' },
  conversation_id: { name: 'conversation_id', type: 'string' },
  dialogue_count: { name: 'dialogue_count', type: 'number' },
};

export class DifyContext implements DifyRefs {
  readonly g = new GraphBuilder();
  readonly report = new ReportBuilder();
  /** Source node id → PaiFlow node id. */
  readonly idOf = new Map<string, string>();
  readonly dropped = new Set<string>();
  readonly inputs = new Map<string, StartInput>();
  /** Where a converted node's output variables are, when not where its type puts them (a tool that became HTTP). */
  readonly outputs = new Map<string, (variable: string) => string | undefined>();
  /** The source graph's edges. */
  edges: ReadonlyArray<{ source: string; target: string; sourceHandle?: unknown }> = [];
  /** The source node being converted (notes about references go to its report item). */
  current = '';
  /** Dify's conversation variables that PaiFlow declares too (dify-assigner.ts): `{{conversation.<name>}}`. */
  conversationVariables: ConversationVariable[] = [];

  constructor(
    readonly mode: DifyMode,
    readonly nodes: ReadonlyMap<string, DifyNode>,
    private readonly env: ReadonlyMap<string, { value?: unknown; secret: boolean }>,
    private readonly conversation: ReadonlyMap<string, unknown>,
  ) {}

  typeOf(id: string): string {
    return String(this.nodes.get(id)?.data.type ?? '');
  }

  titleOf(n: DifyNode): string {
    return String(n.data.title ?? '') || String(n.data.type ?? 'node');
  }

  /** A PaiFlow node for `n` at its place on the canvas (absolute, also inside an iteration). */
  add(n: DifyNode, type: string, config: Record<string, unknown>, id = this.idOf.get(n.id)!): ImportedNode {
    return this.g.addNode({ id, type, position: this.positionOf(n), data: { label: label(this.titleOf(n)), config } });
  }

  positionOf(n: DifyNode): { x: number; y: number } {
    if (n.positionAbsolute) return positionOf(n.positionAbsolute, 0);
    const own = positionOf(n.position, 0);
    const parent = n.parentId ? this.nodes.get(n.parentId) : undefined;
    if (!parent) return own;
    const p = this.positionOf(parent);
    return { x: p.x + own.x, y: p.y + own.y };
  }

  note(why: Text, id = this.current): void {
    this.report.note(id, why);
  }

  /** Notes a reference that has no PaiFlow value (its node was dropped, or is unknown). */
  missing = (what: string): void =>
    this.note(
      t(
        `The reference ${what} names a value PaiFlow does not have (its node was dropped or does not exist); ` +
          'it was left out.',
        `引用 ${what} 指向的值在 PaiFlow 中不存在（其节点被舍弃或不存在），已移除。`,
      ),
    );

  declare(input: StartInput): string {
    if (!this.inputs.has(input.name)) this.inputs.set(input.name, input);
    return `inputs.${input.name}`;
  }

  pathOf(selector: Selector): string | undefined {
    const [root, variable, ...rest] = selector;
    if (!root || !variable) return undefined;
    // Older chatflows name the query `[startNodeId, "sys.query"]`.
    if (variable.startsWith('sys.') && root !== 'sys') return this.pathOf(['sys', variable.slice(4), ...rest]);
    const at = (base: string | undefined, more: string[] = rest) => (base ? joinPath(base, more) : undefined);
    if (root === 'sys') {
      const known = SYS_INPUTS[variable];
      const input = known ?? { name: identifier(`sys_${variable}`, 'sys'), type: 'string' as const };
      return at(this.declare({ ...input, required: this.mode === 'advanced-chat' && variable === 'query' }));
    }
    if (root === 'env') {
      const v = this.env.get(variable);
      const name = identifier(`env_${variable}`, 'env');
      const def = v && !v.secret && v.value !== undefined && v.value !== '' ? { default: v.value } : {};
      return at(
        this.declare({ name, type: typeof v?.value === 'number' ? 'number' : 'string', required: false, ...def }),
      );
    }
    if (root === 'conversation') {
      // A declared conversation variable is one in PaiFlow too (dify-assigner.ts); any other becomes an input.
      if (this.conversationVariables.some((v) => v.name === variable)) return at(`conversation.${variable}`);
      const value = this.conversation.get(variable);
      const type = Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : 'string';
      const name = identifier(`conversation_${variable}`, 'conversation');
      return at(this.declare({ name, type, required: false, ...(value !== undefined ? { default: value } : {}) }));
    }
    const node = this.nodes.get(root);
    const id = this.idOf.get(root);
    if (!node || !id || this.dropped.has(root)) return undefined;
    const own = this.outputs.get(root);
    return at(own ? own(variable) : outputPath(String(node.data.type), id, variable));
  }
}

/** The name a Dify variable aggregator's group has in PaiFlow's Variable aggregator (dify-lists.ts). */
export const groupName = (name: string) => identifier(name, 'group');

/** Where a Dify node type's output variable is in the PaiFlow node it became. */
function outputPath(type: string, id: string, variable: string): string | undefined {
  switch (type) {
    case 'start':
      return `inputs.${variable}`;
    case 'iteration':
      return variable === 'item'
        ? `${id}.output.item`
        : variable === 'index'
          ? `${id}.output.index`
          : `${id}.output.results`;
    case 'llm':
      return variable === 'structured_output'
        ? `${id}.output.json`
        : variable === 'text'
          ? `${id}.output.text`
          : undefined;
    case 'knowledge-retrieval':
      return `${id}.output.hits`;
    case 'http-request':
      return { body: `${id}.output.body`, status_code: `${id}.output.status`, headers: `${id}.output.headers` }[
        variable
      ];
    case 'template-transform':
    case 'answer':
    case 'question-classifier':
      return `${id}.output.text`;
    case 'variable-aggregator':
    case 'variable-assigner':
      return joinPath(`${id}.output`, [groupName(variable)]);
    case 'parameter-extractor':
      return joinPath(`${id}.output.json`, [variable]);
    default:
      return joinPath(`${id}.output`, [variable]);
  }
}
