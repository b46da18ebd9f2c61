/**
 * Variable assigner (issue 45): changes the workflow's conversation variables
 * (engine/template/conversation-variables.ts) with a list of operations, applied in order (a later one sees what an
 * earlier one did). The nodes after it read the new values as `{{conversation.<name>}}`; the run stores them with its
 * chat conversation when it succeeds, so the next turn starts with them (engine/runtime/conversation-state.ts). Its
 * output, `written`, is what it wrote.
 */
import { z } from 'zod';
import { PaiError } from '../../errors';
import type { ConversationVariable } from '../../template/conversation-variables';
import { fitsType } from '../../template/conversation-variables';
import { defineNode, type ConfigProblem } from '../../node-kit/define';
import { findRefs } from '../../template/resolve';
import { apply, appliesTo, asType, OPERATIONS, takesValue, valueType } from './operations';

export const variableAssignerConfigSchema = z.strictObject({
  operations: z
    .array(
      z.strictObject({
        variable: z.string().min(1).max(64).describe('The conversation variable to change'),
        operation: z.enum(OPERATIONS).default('set'),
        value: z.unknown().optional().describe('The value the operation uses; may hold {{refs}}'),
      }),
    )
    .min(1, 'add at least one operation')
    .max(50),
});
export type VariableAssignerConfig = z.infer<typeof variableAssignerConfigSchema>;

const hasRefs = (v: unknown): boolean =>
  typeof v === 'string'
    ? findRefs(v).length > 0
    : Array.isArray(v)
      ? v.some(hasRefs)
      : !!v && typeof v === 'object' && Object.values(v).some(hasRefs);

/** The validator's check against the graph's declarations: each operation names one, fits its type and its value. */
export function checkOperations(config: VariableAssignerConfig, declared: ConversationVariable[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  config.operations.forEach((o, i) => {
    const at = `operations[${i}]`;
    const decl = declared.find((d) => d.name === o.variable);
    if (!decl) {
      problems.push({
        code: 'CONVERSATION_VARIABLE_UNKNOWN',
        message: `the workflow declares no conversation variable "${o.variable}"`,
        path: `${at}.variable`,
      });
      return;
    }
    if (!appliesTo(o.operation, decl.type)) {
      problems.push({
        code: 'ASSIGNER_OPERATION_TYPE',
        message: `"${o.operation}" does not apply to "${decl.name}", a ${decl.type}`,
        path: `${at}.operation`,
      });
      return;
    }
    if (!takesValue(o.operation)) return;
    if (o.value === undefined || o.value === null || o.value === '')
      problems.push({
        code: 'ASSIGNER_VALUE_REQUIRED',
        message: `"${o.operation}" on "${decl.name}" needs a value`,
        path: `${at}.value`,
      });
    else if (!hasRefs(o.value) && !fitsType(valueType(o.operation, decl.type), asType(decl.type, o.value)))
      problems.push({
        code: 'ASSIGNER_VALUE_TYPE',
        message: `"${o.operation}" on "${decl.name}" needs a ${valueType(o.operation, decl.type)} value`,
        path: `${at}.value`,
      });
  });
  return problems;
}

export const variableAssignerNode = defineNode<VariableAssignerConfig>({
  type: 'variable_assigner',
  version: 1,
  label: 'Variable assigner',
  category: 'data',
  description: "Sets, appends to or clears the conversation's variables, which the next turns of a chat read.",
  configSchema: variableAssignerConfigSchema,
  inputs: [{ id: 'in', label: 'in' }],
  outputs: [{ id: 'out', label: 'out' }],
  outputFields: [{ path: 'written', description: 'The variables it changed, with their new values' }],
  pure: true,
  capabilities: {
    writesConversation: {
      written: (output) => {
        const w = (output as { written?: unknown } | null)?.written;
        return w && typeof w === 'object' && !Array.isArray(w) ? (w as Record<string, unknown>) : null;
      },
      check: (config, declared) => checkOperations(config as VariableAssignerConfig, declared),
    },
  },
  async execute(ctx) {
    const declared = ctx.scope.conversationDeclared ?? [];
    const values = { ...(ctx.scope.conversation ?? {}) };
    const written: Record<string, unknown> = {};
    ctx.config.operations.forEach((o, i) => {
      const decl = declared.find((d) => d.name === o.variable);
      if (!decl)
        throw new PaiError(
          'CONVERSATION_VARIABLE_UNKNOWN',
          `the workflow declares no conversation variable "${o.variable}"`,
          { path: `config.operations[${i}].variable` },
        );
      values[decl.name] = apply(decl, values[decl.name], o.operation, o.value, `config.operations[${i}]`);
      written[decl.name] = values[decl.name];
    });
    return { output: { written } };
  },
});
