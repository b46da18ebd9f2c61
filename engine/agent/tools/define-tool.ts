import { z } from 'zod';
import type { AgentTool, ToolContext } from '../../node-kit/agent-services';

/** A tool whose arguments are a zod schema: the JSON Schema sent to the model and the validation are the same thing. */
export function defineTool<S extends z.ZodType<Record<string, unknown>>>(t: {
  name: string;
  description: string;
  schema: S;
  run(args: z.infer<S>, ctx: ToolContext): Promise<unknown>;
}): AgentTool {
  const { $schema: _drop, ...parameters } = z.toJSONSchema(t.schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return {
    name: t.name,
    description: t.description,
    parameters,
    async execute(args, ctx) {
      const parsed = t.schema.safeParse(args);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`invalid arguments: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
      }
      return t.run(parsed.data, ctx);
    },
  };
}
