import { z } from 'zod';
import { PaiError } from '../errors';
import type { NodeCapabilities, NodeDefinition } from './define';

const NO_CAPABILITIES: NodeCapabilities = Object.freeze({});

/** The one registry of node types, used by validation, both engines and the editor's palette/forms. */
export class NodeRegistry {
  private byType = new Map<string, NodeDefinition[]>();

  register(def: NodeDefinition): this {
    const list = this.byType.get(def.type) ?? [];
    if (list.some((d) => d.version === def.version))
      throw new Error(`node ${def.type}@${def.version} registered twice`);
    list.push(def);
    list.sort((a, b) => b.version - a.version);
    this.byType.set(def.type, list);
    return this;
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  /** The requested version, or the latest when none is stored (n8n-style typeVersion keeps old graphs running). */
  get(type: string, version?: number): NodeDefinition {
    const list = this.byType.get(type);
    if (!list) throw new PaiError('UNKNOWN_NODE_TYPE', `unknown node type "${type}"`);
    if (version === undefined) return list[0];
    const def = list.find((d) => d.version === version);
    if (!def) throw new PaiError('UNKNOWN_NODE_VERSION', `node type "${type}" has no version ${version}`);
    return def;
  }

  /** A graph node's capabilities (none for an unknown type, which validation reports). */
  capabilitiesOf(node: { type: string; data?: { version?: number } }): NodeCapabilities {
    const list = this.byType.get(node.type);
    const def = list && (list.find((d) => d.version === node.data?.version) ?? list[0]);
    return def?.capabilities ?? NO_CAPABILITIES;
  }

  latest(): NodeDefinition[] {
    return [...this.byType.values()].map((l) => l[0]);
  }

  /** What GET /api/node-types returns: the palette and the forms are generated from this. */
  describe() {
    return this.latest().map((d) => ({
      type: d.type,
      version: d.version,
      label: d.label,
      category: d.category,
      description: d.description,
      sideEffects: !!d.sideEffects,
      configSchema: z.toJSONSchema(d.configSchema, { io: 'input', unrepresentable: 'any' }),
      inputs: d.inputs,
      outputs: d.outputs,
      dynamicOutputs: !!d.outputsFor,
      ...(d.outputsFrom ? { outputsFrom: d.outputsFrom } : {}),
      outputFields: d.outputFields ?? [],
    }));
  }
}
