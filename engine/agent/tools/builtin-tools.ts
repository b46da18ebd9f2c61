/**
 * Built-in tools: calculator, current_time, http_fetch (through the SSRF-guarded fetch), memory_save /
 * memory_recall (only offered when long-term memory is configured) and knowledge_search (only when a knowledge
 * service is on the context and the node names knowledge bases).
 */
import { z } from 'zod';
import { ToolPolicyError } from '../tool-errors';
import { KNOWLEDGE_SEARCH_TOOL, knowledgeSearchToolSpec, runKnowledgeSearch } from '../../knowledge/knowledge-tool';
import type { AgentTool, ToolContext } from '../../node-kit/agent-services';
import { evaluate } from './calculator';
import { defineTool } from './define-tool';

const MAX_FETCH_CHARS = 100_000;

export const calculatorTool = defineTool({
  name: 'calculator',
  description:
    'Evaluates an arithmetic expression exactly: + - * / % ^, parentheses, sqrt, abs, ln, log, log10, ' +
    'log2, exp, sin, cos, tan, floor, ceil, round(x, digits), min, max, pow, hypot, constants pi, e, tau.',
  schema: z.object({ expression: z.string().min(1).max(1000).describe('e.g. "(17.5 * 3) / 2 + sqrt(16)"') }),
  async run({ expression }) {
    const value = evaluate(expression);
    return String(Number.isInteger(value) ? value : Number(value.toPrecision(15)));
  },
});

export const currentTimeTool = defineTool({
  name: 'current_time',
  description: 'The current date and time, in UTC and optionally in an IANA time zone (e.g. "Europe/Paris").',
  schema: z.object({ timezone: z.string().max(64).optional().describe('IANA time zone name') }),
  async run({ timezone }) {
    const now = new Date();
    let local: string | undefined;
    if (timezone) {
      try {
        local = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'long' }).format(
          now,
        );
      } catch {
        throw new Error(`unknown time zone "${timezone}"`);
      }
    }
    return {
      utc: now.toISOString(),
      unixSeconds: Math.floor(now.getTime() / 1000),
      ...(timezone ? { timezone, local } : {}),
    };
  },
});

export const httpFetchTool = defineTool({
  name: 'http_fetch',
  description:
    'Fetches a public http(s) URL and returns the status, content type and body ' +
    'text (first 100,000 characters). Internal and private addresses are refused.',
  schema: z.object({
    url: z.string().min(1).max(4000),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().max(1_000_000).optional().describe('request body (text or JSON text)'),
  }),
  async run({ url, method, headers, body }, ctx) {
    const h = new Headers(headers ?? {});
    if (method !== 'GET' && method !== 'HEAD' && !h.has('idempotency-key'))
      h.set('idempotency-key', ctx.idempotencyKey);
    const res = await ctx.fetch(url, {
      method,
      headers: h,
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
      signal: ctx.signal,
      timeoutMs: ctx.timeoutMs,
    });
    let text = '';
    let truncated = false;
    if (res.body) {
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (text.length > MAX_FETCH_CHARS) {
          truncated = true;
          await reader.cancel().catch(() => {});
          break;
        }
      }
    }
    if (truncated) text = `${text.slice(0, MAX_FETCH_CHARS)}\n[truncated at ${MAX_FETCH_CHARS} characters]`;
    return (
      `HTTP ${res.status}${res.ok ? '' : ' (not OK)'}\ncontent-type: ` +
      `${res.headers.get('content-type') ?? 'unknown'}\n\n${text}`
    );
  },
});

const needMemory = (ctx: ToolContext) => {
  if (!ctx.memory) throw new ToolPolicyError('long-term memory is not configured for this agent');
  return ctx.memory;
};

export const memorySaveTool = defineTool({
  name: 'memory_save',
  description: 'Saves a fact to long-term memory so later runs can recall it. Save short, self-contained statements.',
  schema: z.object({ content: z.string().min(1).max(2000).describe('the fact to remember, self-contained') }),
  async run({ content }, ctx) {
    const r = await needMemory(ctx).save(content);
    return r.created ? `saved to memory (${r.id})` : `already in memory (${r.id}); refreshed`;
  },
});

export const memoryRecallTool = defineTool({
  name: 'memory_recall',
  description: 'Searches long-term memory for facts related to the query (best matches first).',
  schema: z.object({ query: z.string().min(1).max(2000), topK: z.number().int().min(1).max(20).optional() }),
  async run({ query, topK }, ctx) {
    const hits = await needMemory(ctx).recall(query, { topK });
    if (!hits.length) return 'no matching memories';
    return hits
      .map((m) => `- ${m.content} (score ${m.score.toFixed(2)}, saved ${m.updatedAt.slice(0, 10)})`)
      .join('\n');
  },
});

/**
 * knowledge_search over the knowledge bases the node names, through the same KnowledgeService (ctx.knowledge) and
 * formatting ([n] citations) the knowledge node uses. With several bases the model picks one (default: the first).
 */
export function knowledgeSearchTool(knowledgeBaseIds: string[]): AgentTool {
  const spec = knowledgeSearchToolSpec();
  const base = spec.parameters as { properties: Record<string, unknown>; required?: string[] };
  const multi = knowledgeBaseIds.length > 1;
  return {
    name: KNOWLEDGE_SEARCH_TOOL,
    description: multi ? `${spec.description} Knowledge bases: ${knowledgeBaseIds.join(', ')}.` : spec.description,
    parameters: multi
      ? {
          ...spec.parameters,
          properties: {
            ...base.properties,
            knowledgeBaseId: { type: 'string', enum: knowledgeBaseIds, description: 'which knowledge base to search' },
          },
        }
      : spec.parameters,
    async execute(args, ctx) {
      if (!ctx.knowledge) throw new ToolPolicyError('no knowledge service is configured');
      const id = multi && typeof args.knowledgeBaseId === 'string' ? args.knowledgeBaseId : knowledgeBaseIds[0];
      if (!knowledgeBaseIds.includes(id))
        throw new ToolPolicyError(`knowledge base "${id}" is not available to this agent`);
      const r = await runKnowledgeSearch(ctx.knowledge, id, args, {
        signal: ctx.signal,
        runId: ctx.runId,
        maxContextChars: 12_000,
      });
      return r.hits.length ? r.context : 'no matching passages';
    },
  };
}

/** Built-ins that need nothing but the node context. */
export const CORE_TOOLS: AgentTool[] = [calculatorTool, currentTimeTool, httpFetchTool];
export const MEMORY_TOOLS: AgentTool[] = [memorySaveTool, memoryRecallTool];
