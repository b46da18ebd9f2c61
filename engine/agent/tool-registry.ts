/**
 * The tools an agent could use, by name. A node *selects* from them (exact names, or `prefix*` patterns such as
 * `mcp__github__*`); only selected tools' schemas are sent to the model, and the selection is the allowlist the
 * harness enforces on every call.
 */
import type { ChatTool } from '../llm/types';
import type { AgentTool } from '../node-kit/agent-services';

export const TOOL_NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;

export class ToolRegistry {
  private byName = new Map<string, AgentTool>();

  register(tool: AgentTool): this {
    if (!TOOL_NAME_RE.test(tool.name))
      throw new Error(`invalid tool name "${tool.name}" (letters, digits, _ and -, at most 64)`);
    if (this.byName.has(tool.name)) throw new Error(`tool "${tool.name}" registered twice`);
    this.byName.set(tool.name, tool);
    return this;
  }

  registerAll(tools: Iterable<AgentTool>): this {
    for (const t of tools) this.register(t);
    return this;
  }

  get(name: string): AgentTool | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** The tools matching the selection, in selection order; `missing` lists selections that matched nothing. */
  select(selection: string[]): { tools: AgentTool[]; missing: string[] } {
    const picked = new Map<string, AgentTool>();
    const missing: string[] = [];
    for (const sel of selection) {
      const matches = sel.endsWith('*')
        ? [...this.byName.values()].filter((t) => t.name.startsWith(sel.slice(0, -1)))
        : [this.byName.get(sel)].filter((t): t is AgentTool => !!t);
      if (!matches.length) missing.push(sel);
      for (const t of matches) picked.set(t.name, t);
    }
    return { tools: [...picked.values()], missing };
  }
}

export function toChatTools(tools: AgentTool[]): ChatTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}
