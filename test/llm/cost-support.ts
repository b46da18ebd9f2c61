/** Graphs and the price arithmetic the cost tests check against (written out, not taken from engine/llm/prices.ts). */
import type { Graph } from '@/engine/graph/schema';

export interface Price {
  input: number;
  cachedInput?: number;
  output: number;
}

/** USD: uncached input at the input rate, cached input at the cached rate, output at the output rate. */
export function expectedUsd(p: Price, u: { input: number; cached?: number; output: number }): number {
  const cached = u.cached ?? 0;
  return ((u.input - cached) * p.input + cached * (p.cachedInput ?? p.input) + u.output * p.output) / 1_000_000;
}

/** start → llm `l1` → agent `a1` (calculator) → end; each node's config is merged over a working default. */
export function llmThenAgentGraph(llm: Record<string, unknown>, agent: Record<string, unknown>): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'l1',
        type: 'llm',
        position: { x: 200, y: 0 },
        data: { config: { model: 'gpt-4o-mini', userPrompt: 'Say hi', ...llm } },
      },
      {
        id: 'a1',
        type: 'agent',
        position: { x: 400, y: 0 },
        data: { config: { model: 'gpt-4o-mini', task: 'Compute 6 * 7', tools: ['calculator'], ...agent } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 600, y: 0 },
        data: { config: { outputs: [{ name: 'answer', value: '{{a1.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'l1' },
      { id: 'e2', source: 'l1', target: 'a1' },
      { id: 'e3', source: 'a1', target: 'end' },
    ],
  };
}

/** start → llm `l1` → end. */
export function llmGraph(llm: Record<string, unknown>): Graph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      {
        id: 'l1',
        type: 'llm',
        position: { x: 200, y: 0 },
        data: { config: { model: 'gpt-4o-mini', userPrompt: 'Say hi', ...llm } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{l1.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'l1' },
      { id: 'e2', source: 'l1', target: 'end' },
    ],
  };
}
