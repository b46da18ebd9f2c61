/**
 * The published API's OpenAPI document (lib/server/publishing/openapi.ts) as Markdown, for docs/http-api.md: each
 * operation with its parameters, body and answers, then each schema as a table of its properties. Rendered for an
 * example workflow (slug `{slug}`, one required string input `message`, one output `answer`): a real workflow's
 * document, served at `/api/v1/workflows/<slug>/openapi.json`, has its own inputs and outputs in `Inputs` and
 * `Outputs`.
 */
import type { Graph } from '@/engine/graph/schema';
import type { WorkflowRecord, WorkflowVersionRecord } from '@/engine/store/types';
import { buildOpenApi } from '@/lib/server/publishing/openapi';
import { cell, wrap } from './markdown';

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: Schema }> }>;
}

const EXAMPLE_GRAPH = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { config: { inputs: [{ name: 'message', type: 'string', required: true }] } },
    },
    {
      id: 'end',
      type: 'end',
      position: { x: 200, y: 0 },
      data: { config: { outputs: [{ name: 'answer', value: '{{inputs.message}}' }] } },
    },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'end' }],
} as unknown as Graph;

/** The document for the example workflow. */
export function exampleOpenApi() {
  const workflow = { name: 'Example', description: '', slug: '{slug}' } as unknown as WorkflowRecord;
  const version = { version: 1, graph: EXAMPLE_GRAPH } as unknown as WorkflowVersionRecord;
  return buildOpenApi('https://paiflow.example.com', workflow, version);
}

const anchor = (name: string) => name.toLowerCase();
const refName = (ref: string) => ref.replace('#/components/schemas/', '');

/** A schema in a few words: `string`, [`RunStatus`](#runstatus), `array of object`, one of …. */
export function typeOf(s: Schema | undefined): string {
  if (!s) return 'any';
  if (typeof s.$ref === 'string') return `[\`${refName(s.$ref)}\`](#${anchor(refName(s.$ref))})`;
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => `\`${v}\``).join(', ')}`;
  if (Array.isArray(s.oneOf)) return (s.oneOf as Schema[]).map(typeOf).join(' or ');
  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
  const words = types.map((t) => {
    if (t === 'array') return `array of ${typeOf(s.items as Schema)}`;
    if (t === 'object' && s.properties) return `object { ${Object.keys(s.properties).join(', ')} }`;
    return t;
  });
  const format = typeof s.format === 'string' ? ` (${s.format})` : '';
  return (words.join(' or ') || 'any') + format;
}

function bodyTypes(content: Record<string, { schema?: Schema }> | undefined): string {
  if (!content) return '—';
  return Object.entries(content)
    .map(([media, { schema }]) => (media === 'application/json' ? typeOf(schema) : `\`${media}\``))
    .join(', ');
}

function renderOperation(pathName: string, method: string, op: Operation): string[] {
  const lines = [`#### \`${method.toUpperCase()} ${pathName}\``, '', `${op.summary}.`, ''];
  if (op.description) lines.push(...wrap(op.description), '');
  for (const p of op.parameters ?? [])
    lines.push(`- ${p.in} \`${p.name}\`${p.required ? ' (required)' : ''}${p.description ? `: ${p.description}` : ''}`);
  if (op.parameters?.length) lines.push('');
  if (op.requestBody) lines.push(`Body: ${bodyTypes(op.requestBody.content)}.`, '');
  lines.push('| status | meaning | body |', '|---|---|---|');
  for (const [status, r] of Object.entries(op.responses))
    lines.push(`| ${status} | ${cell(r.description)} | ${cell(bodyTypes(r.content))} |`);
  lines.push('');
  return lines;
}

function renderSchema(name: string, s: Schema): string[] {
  const lines = [`#### ${name}`, ''];
  if (typeof s.description === 'string') lines.push(`${s.description}.`, '');
  const properties = s.properties as Record<string, Schema> | undefined;
  if (!properties || !Object.keys(properties).length) {
    lines.push(properties ? 'An object; its keys depend on the workflow.' : `${typeOf(s)}.`, '');
    return lines;
  }
  const required = new Set((s.required as string[] | undefined) ?? []);
  lines.push('| property | type | required | notes |', '|---|---|---|---|');
  for (const [key, p] of Object.entries(properties)) {
    const notes = [p.description, p.default !== undefined ? `default \`${JSON.stringify(p.default)}\`` : undefined]
      .filter(Boolean)
      .join('; ');
    lines.push(`| \`${key}\` | ${cell(typeOf(p))} | ${required.has(key) ? 'yes' : ''} | ${cell(notes)} |`);
  }
  lines.push('');
  return lines;
}

/** The "Published API (OpenAPI)" part of docs/http-api.md. */
export function renderOpenApi(): string[] {
  const doc = exampleOpenApi();
  const lines: string[] = ['### Operations', ''];
  for (const [pathName, methods] of Object.entries(doc.paths as unknown as Record<string, Record<string, Operation>>))
    for (const [method, op] of Object.entries(methods)) lines.push(...renderOperation(pathName, method, op));
  const scheme = doc.components.securitySchemes.bearerAuth;
  lines.push('### Authentication', '', `HTTP \`${scheme.scheme}\`: ${scheme.description}.`, '', '### Schemas', '');
  for (const [name, s] of Object.entries(doc.components.schemas as Record<string, Schema>))
    lines.push(...renderSchema(name, s));
  return lines;
}
