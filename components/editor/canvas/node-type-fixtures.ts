/** Node types as GET /api/node-types describes them, for the canvas's unit tests. */
import type { NodeTypeInfo } from '@/components/api/types';

/** A node type with these outputs, and one input `in` unless `inputs` says otherwise. */
export function nodeTypeInfo(
  type: string,
  outputs: string[],
  options: { inputs?: string[]; dynamicOutputs?: boolean; category?: string; label?: string } = {},
): NodeTypeInfo {
  return {
    type,
    version: 1,
    label: options.label ?? type,
    category: options.category ?? 'logic',
    description: '',
    sideEffects: false,
    configSchema: {},
    inputs: (options.inputs ?? ['in']).map((id) => ({ id, label: id })),
    outputs: outputs.map((id) => ({ id, label: id })),
    dynamicOutputs: options.dynamicOutputs ?? false,
  } as NodeTypeInfo;
}
