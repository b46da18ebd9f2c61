/**
 * A run's conversation variables (engine/template/conversation-variables.ts) as the runtime keeps them: where their
 * starting values come from (the conversation of the chat turn that started the run — its trigger `chat` — else the
 * declared defaults), what a node wrote (capability `writesConversation`), and the store that keeps them with the
 * conversation. The run's commit (run-execution.ts) writes them there before it records the run as succeeded, so a
 * turn that fails writes nothing and the next turn of the same conversation reads what this one wrote.
 */
import type { Graph } from '../graph/schema';
import { startValues, type ConversationVariable } from '../template/conversation-variables';
import type { NodeDefinition } from '../node-kit/define';
import type { RunRecord } from '../store/types';

/** Where conversations keep their variables (the chat store, lib/server/chat/conversation-variables.ts). */
export interface ConversationVariableStore {
  /** The values stored with the conversation (none yet: `{}`; no such conversation: null). */
  valuesOf(conversationId: string): Promise<Record<string, unknown> | null>;
  /** Stores `written` (name → value) over the conversation's values; a deleted conversation is no error. */
  write(conversationId: string, written: Record<string, unknown>): Promise<void>;
}

/** What a RunState is given: the declarations, the values (changed in place as nodes write) and the writes so far. */
export interface ConversationState {
  declared: ConversationVariable[];
  values: Record<string, unknown>;
  writes: Map<string, unknown>;
}

/** The conversation a run belongs to (a chat turn's), or null. */
export function conversationOfRun(run: Pick<RunRecord, 'triggerKind' | 'triggerId'>): string | null {
  return run.triggerKind === 'chat' && run.triggerId ? run.triggerId : null;
}

/** The values the run's conversation holds now (null: the run belongs to none, or the workflow declares none). */
export async function storedValues(
  run: Pick<RunRecord, 'triggerKind' | 'triggerId'>,
  graph: Graph,
  store: ConversationVariableStore | undefined,
): Promise<Record<string, unknown> | null> {
  const id = conversationOfRun(run);
  if (!id || !store || !graph.conversationVariables?.length) return null;
  return store.valuesOf(id);
}

/** The state an execution starts with (undefined when the graph declares no conversation variable). */
export function conversationState(
  graph: Pick<Graph, 'conversationVariables'>,
  stored: Record<string, unknown> | null | undefined,
): ConversationState | undefined {
  const declared = graph.conversationVariables ?? [];
  if (!declared.length) return undefined;
  return { declared, values: startValues(declared, stored), writes: new Map() };
}

/** What a node's output wrote, when its type writes conversation variables. */
export function writtenBy(def: Pick<NodeDefinition, 'capabilities'> | undefined, output: unknown) {
  return def?.capabilities?.writesConversation?.written(output) ?? null;
}
