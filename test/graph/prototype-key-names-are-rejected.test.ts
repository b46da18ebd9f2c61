// Guarantees: start-input and end-output names cannot be __proto__ / constructor / prototype (they would silently
// rewire the object they are written into), and undeclared inputs named like Object.prototype members pass through
// intact.
import { describe, expect, it } from 'vitest';
import type { Graph } from '@/engine/graph/schema';
import { graphSchema } from '@/engine/graph/schema';
import { toJsonPath } from '@/engine/validation/json-path';
import { validateGraph } from '@/engine/graph/validate';
import { endNode } from '@/engine/nodes/end';
import { createDefaultRegistry } from '@/engine/nodes/registry';
import { checkRunInputs, startConfigSchema } from '@/engine/nodes/start';

const registry = createDefaultRegistry();
const RESERVED = ['__proto__', 'constructor', 'prototype'];

function graph(inputName: string, outputName: string): Graph {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: inputName, type: 'object' }] } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 0, y: 0 },
        data: { config: { outputs: [{ name: outputName, value: 'x' }] } },
      },
    ],
    edges: [{ id: 'e', source: 'start', target: 'end' }],
  };
}

describe('reserved names', () => {
  it.each(RESERVED)('a start input named %s is INVALID_CONFIG at its path', (name) => {
    const v = validateGraph(graph(name, 'ok'), registry);
    expect(v.errors.map((e) => [e.code, e.path])).toEqual([['INVALID_CONFIG', 'nodes[0].data.config.inputs[0].name']]);
  });

  it.each(RESERVED)('an end output named %s is INVALID_CONFIG at its path', (name) => {
    const v = validateGraph(graph('ok', name), registry);
    expect(v.errors.map((e) => [e.code, e.path])).toEqual([['INVALID_CONFIG', 'nodes[1].data.config.outputs[0].name']]);
  });

  it('ordinary identifiers, including ones that shadow Object.prototype members, are fine', () => {
    expect(validateGraph(graph('toString', 'valueOf'), registry).errors).toEqual([]);
    expect(validateGraph(graph('_private', 'hasOwnProperty'), registry).errors).toEqual([]);
  });

  it('undeclared inputs named like Object.prototype members pass through as own data', () => {
    const cfg = startConfigSchema.parse({ inputs: [{ name: 'q', type: 'string' }] });
    const { value, problems } = checkRunInputs(cfg, { q: 'x', toString: 'kept', hasOwnProperty: 1 });
    expect(problems).toEqual([]);
    expect(value).toEqual({ q: 'x', toString: 'kept', hasOwnProperty: 1 });
  });

  it('end outputs are own properties of a plain object', async () => {
    const res = await endNode.execute({
      config: {
        outputs: [
          { name: 'a', value: 1 },
          { name: 'toString', value: 'x' },
        ],
      },
    } as any);
    expect(res.output).toEqual({ a: 1, toString: 'x' });
    expect(Object.getPrototypeOf(res.output)).toBe(Object.prototype);
  });

  it('a constructor or prototype key anywhere in a node or an edge is refused at its path', () => {
    const body = JSON.parse(
      JSON.stringify(graph('q', 'a'))
        .replace('"data":{', '"data":{"constructor":"x",')
        .replace('"config":{"outputs"', '"config":{"constructor":{"x":true},"outputs"')
        .replace('"target":"end"', '"target":"end","prototype":1'),
    );
    const r = graphSchema.safeParse(body);
    expect(r.success).toBe(false);
    const paths = r.success ? [] : r.error.issues.map((i) => toJsonPath(i.path));
    expect(paths.sort()).toEqual([
      'edges[0].prototype',
      'nodes[0].data.constructor',
      'nodes[1].data.config.constructor',
    ]);
  });
});
