/**
 * Conversation variables (issue 45): typed values a workflow declares on its graph (`graph.conversationVariables`)
 * that persist across the turns of one chat conversation, like Dify's. A run of a chat turn starts with the
 * conversation's stored values (a declared variable it has none for, or one whose stored value no longer fits the
 * declared type, starts at its default); any other run (editor, API) starts at the defaults. Templates read them as
 * `{{conversation.<name>}}`; a node whose type writes them (capability `writesConversation`: the variable assigner)
 * changes them for the later nodes of the run, and the run stores them with the conversation when it succeeds.
 * Here, below the graph, because the template scope carries them (graph validation reads templates, not the reverse).
 */
import { z } from 'zod';

export const CONVERSATION_VARIABLE_TYPES = [
  'string',
  'number',
  'boolean',
  'object',
  'array[string]',
  'array[number]',
  'array[object]',
] as const;
export type ConversationVariableType = (typeof CONVERSATION_VARIABLE_TYPES)[number];

export const CONVERSATION_VARIABLE_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The most variables a workflow may declare. */
export const MAX_CONVERSATION_VARIABLES = 100;

export const conversationVariableSchema = z.strictObject({
  name: z
    .string()
    .regex(
      CONVERSATION_VARIABLE_NAME_RE,
      'a name starts with a letter or _ and has only letters, digits and _ (max 64)',
    ),
  type: z.enum(CONVERSATION_VARIABLE_TYPES),
  /** Absent: the type's empty value (emptyValue). */
  default: z.unknown().optional(),
  description: z.string().max(1000).optional(),
});
export type ConversationVariable = z.infer<typeof conversationVariableSchema>;

export const conversationVariablesSchema = z.array(conversationVariableSchema).max(MAX_CONVERSATION_VARIABLES);

const isObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);

/** Does `v` fit `type`? */
export function fitsType(type: ConversationVariableType, v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return isObject(v);
    case 'array[string]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'array[number]':
      return Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
    case 'array[object]':
      return Array.isArray(v) && v.every(isObject);
  }
}

/** What `clear` sets and what a variable declared without a default starts at. */
export function emptyValue(type: ConversationVariableType): unknown {
  if (type === 'string') return '';
  if (type === 'number') return 0;
  if (type === 'boolean') return false;
  if (type === 'object') return {};
  return [];
}

/** A variable's default (a copy: a run changes its values in place). */
export function defaultOf(v: ConversationVariable): unknown {
  return structuredClone(v.default === undefined ? emptyValue(v.type) : v.default);
}

/**
 * The values a run starts with: each declared variable's stored value when it fits the declared type, else its
 * default. Stored values of variables no longer declared are left out.
 */
export function startValues(
  declared: ConversationVariable[] | undefined,
  stored: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of declared ?? []) {
    const s = stored && Object.prototype.hasOwnProperty.call(stored, v.name) ? stored[v.name] : undefined;
    out[v.name] = s !== undefined && fitsType(v.type, s) ? structuredClone(s) : defaultOf(v);
  }
  return out;
}

/** Problems of the declarations (paths relative to the graph): a name used twice, a default of the wrong type. */
export function checkDeclarations(
  declared: ConversationVariable[] | undefined,
): Array<{ code: string; message: string; path: string }> {
  const problems: Array<{ code: string; message: string; path: string }> = [];
  const seen = new Set<string>();
  (declared ?? []).forEach((v, i) => {
    if (seen.has(v.name))
      problems.push({
        code: 'DUPLICATE_CONVERSATION_VARIABLE',
        message: `conversation variable "${v.name}" is declared twice`,
        path: `conversationVariables[${i}].name`,
      });
    seen.add(v.name);
    if (v.default !== undefined && !fitsType(v.type, v.default))
      problems.push({
        code: 'INVALID_CONVERSATION_VARIABLE_DEFAULT',
        message: `the default of conversation variable "${v.name}" must be a ${v.type}`,
        path: `conversationVariables[${i}].default`,
      });
  });
  return problems;
}
