/**
 * The OpenAPI 3.1 document of one published endpoint. The request's `inputs` schema is built from the start node of
 * the version it describes (names, types, required, descriptions, defaults) — the same declarations the server checks
 * inputs against — and the outputs from the end node's output names. Node internals (templates, prompts, URLs) are
 * never included: the document is served without a key.
 */
import { endConfigSchema } from '@/engine/nodes/end';
import { startConfigSchema, type StartConfig } from '@/engine/nodes/start';
import type { WorkflowRecord, WorkflowVersionRecord } from '@/engine/store/types';
import { endpointPath, MCP_PATH } from './publish';
import { RUN_MODES } from './published-runs';

type Schema = Record<string, unknown>;

/** The JSON Schema of run inputs as a start node declares them (also the MCP server's tool input schema). */
export function inputsSchema(config: StartConfig): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const d of config.inputs) {
    properties[d.name] = {
      type: d.type,
      ...(d.description ? { description: d.description } : {}),
      ...(d.default !== undefined ? { default: d.default } : {}),
    };
    if (d.required && d.default === undefined) required.push(d.name);
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    description: "The inputs declared by the workflow's start node",
  };
}

/** The start node's inputs of a published version, as JSON Schema. */
export function versionInputsSchema(version: WorkflowVersionRecord): Schema {
  const start = version.graph.nodes.find((n) => n.type === 'start');
  return inputsSchema(startConfigSchema.parse(start?.data.config ?? {}));
}

/** The names the version's end nodes map: the keys of a run's outputs. */
export function outputNames(version: WorkflowVersionRecord): string[] {
  return version.graph.nodes
    .filter((n) => n.type === 'end')
    .flatMap((n) => endConfigSchema.safeParse(n.data.config ?? {}).data?.outputs.map((o) => o.name) ?? []);
}

function outputsSchema(version: WorkflowVersionRecord): Schema {
  const names = outputNames(version);
  return {
    type: ['object', 'null'],
    properties: Object.fromEntries(names.map((n) => [n, {}])),
    description: "The values mapped by the workflow's end node",
  };
}

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
const errorResponse = (description: string, headers?: Schema) => ({
  description,
  ...(headers ? { headers } : {}),
  content: json('Error'),
});
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } };
const AUTH_ERRORS = {
  401: errorResponse('Missing, invalid or revoked API key', { 'WWW-Authenticate': { schema: { type: 'string' } } }),
  403: errorResponse('The API key belongs to another workflow'),
  429: errorResponse('Rate limit or concurrency cap reached', RETRY_AFTER),
};
const SSE = {
  'text/event-stream': {
    schema: { type: 'string', description: 'Server-Sent Events; each `data:` is a TraceEvent (JSON), `id:` its seq' },
  },
};

export function buildOpenApi(origin: string, wf: WorkflowRecord, version: WorkflowVersionRecord) {
  const runId = { name: 'runId', in: 'path', required: true, schema: { type: 'string' } };
  return {
    openapi: '3.1.0',
    info: {
      title: wf.name,
      version: String(version.version),
      ...(wf.description ? { description: wf.description } : {}),
    },
    servers: [{ url: origin }],
    security: [{ bearerAuth: [] }],
    paths: {
      [endpointPath(wf.slug!)]: {
        post: {
          operationId: 'runWorkflow',
          summary: `Run "${wf.name}"`,
          description:
            'Runs the current published version (or `version`). sync: 200 with the ' +
            "outputs, or 202 with statusUrl if the run takes longer than the server's " +
            'sync timeout; stream: the trace as Server-Sent Events; async: 202 at once.',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'A repeat with the same key returns the same run',
              schema: { type: 'string', maxLength: 255 },
            },
          ],
          requestBody: { required: true, content: json('RunRequest') },
          responses: {
            200: {
              description: 'sync: the finished run; stream: its trace events',
              content: { ...json('RunResult'), ...SSE },
            },
            202: {
              description: 'async, or sync past the timeout: the run is in progress',
              content: json('RunAccepted'),
            },
            400: errorResponse('Invalid body or inputs; `path` points at the offending field'),
            ...AUTH_ERRORS,
            404: errorResponse('Not published, or no such version'),
            409: errorResponse('Idempotency-Key reused with other inputs'),
            413: errorResponse('Body too large'),
            415: errorResponse('Body is not JSON'),
          },
        },
      },
      '/api/v1/chat/completions': {
        post: {
          operationId: 'chatCompletions',
          summary: `"${wf.name}" as an OpenAI-compatible chat model`,
          description:
            "Any OpenAI client: base URL `<server>/api/v1`, this workflow's key, `model` its slug. The " +
            'last user message goes to the start input named message/query/question/input/prompt/text (an ' +
            'input named `messages` gets the whole conversation); the reply is the end output named ' +
            'answer/text/output/content/reply/message. `stream: true` answers chat.completion.chunk events.',
          requestBody: { required: true, content: json('ChatRequest') },
          responses: {
            200: {
              description: 'A chat.completion, or with stream: true its chunks as Server-Sent Events',
              content: { ...json('ChatCompletion'), ...SSE },
            },
            202: {
              description:
                'The run is still going after the sync timeout, or waits ' +
                'for human input (error.code RUN_PENDING, with statusUrl)',
              content: json('Error'),
            },
            400: errorResponse('Invalid body; `path` points at the offending field'),
            ...AUTH_ERRORS,
            404: errorResponse('No published workflow with this slug'),
            422: errorResponse('The run failed (RUN_FAILED)'),
          },
        },
      },
      '/api/v1/models': {
        get: {
          operationId: 'listModels',
          summary: 'The published workflows this key can call, as an OpenAI models list (`id`: the slug)',
          responses: {
            200: { description: 'A list of models', content: json('ModelList') },
            401: AUTH_ERRORS[401],
            429: AUTH_ERRORS[429],
          },
        },
      },
      [MCP_PATH]: {
        post: {
          operationId: 'mcp',
          summary: 'MCP server (Streamable HTTP, stateless)',
          description:
            'JSON-RPC messages of the Model Context Protocol. The published workflows of this key that are ' +
            'opted in to MCP are its tools: name = slug, input schema = the start node inputs, result = the ' +
            'outputs (text JSON and structuredContent). GET and DELETE answer 405 (no sessions, no stream).',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC message' } } },
          },
          responses: {
            200: {
              description: 'The JSON-RPC response',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            202: { description: 'A notification or response was accepted' },
            401: AUTH_ERRORS[401],
            429: AUTH_ERRORS[429],
          },
        },
      },
      '/api/v1/runs/{runId}': {
        get: {
          operationId: 'getRun',
          summary: 'A published run of this workflow (editor runs are not found)',
          parameters: [runId],
          responses: {
            200: { description: 'The run', content: json('Run') },
            ...AUTH_ERRORS,
            404: errorResponse('No such run for this key'),
          },
        },
      },
      '/api/v1/runs/{runId}/events': {
        get: {
          operationId: 'getRunEvents',
          summary: "The run's trace as Server-Sent Events (honours Last-Event-ID)",
          parameters: [runId],
          responses: {
            200: { description: 'Events until the terminal one', content: SSE },
            ...AUTH_ERRORS,
            404: errorResponse('No such run for this key'),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key of this workflow (pf_…)' },
      },
      schemas: {
        Inputs: versionInputsSchema(version),
        Outputs: outputsSchema(version),
        RunRequest: {
          type: 'object',
          required: ['inputs'],
          properties: {
            inputs: { $ref: '#/components/schemas/Inputs' },
            mode: { type: 'string', enum: [...RUN_MODES], default: 'sync' },
            version: {
              type: 'integer',
              minimum: 1,
              description: 'A published version number; default: the current one',
            },
            callbackUrl: { type: 'string', format: 'uri', description: 'POSTed the outcome when the run ends' },
          },
        },
        RunStatus: {
          type: 'string',
          enum: ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled', 'interrupted'],
        },
        RunResult: {
          type: 'object',
          required: ['runId', 'status', 'outputs'],
          properties: {
            runId: { type: 'string' },
            status: { $ref: '#/components/schemas/RunStatus' },
            version: { type: 'integer' },
            outputs: { $ref: '#/components/schemas/Outputs' },
            error: { $ref: '#/components/schemas/ErrorBody' },
          },
        },
        RunAccepted: {
          type: 'object',
          required: ['runId', 'status', 'statusUrl'],
          properties: {
            runId: { type: 'string' },
            status: { $ref: '#/components/schemas/RunStatus' },
            version: { type: 'integer' },
            statusUrl: { type: 'string', format: 'uri' },
            eventsUrl: { type: 'string', format: 'uri' },
          },
        },
        Run: {
          type: 'object',
          required: ['id', 'status'],
          properties: {
            id: { type: 'string' },
            workflowId: { type: 'string' },
            versionId: { type: ['string', 'null'] },
            status: { $ref: '#/components/schemas/RunStatus' },
            inputs: { type: 'object' },
            outputs: { $ref: '#/components/schemas/Outputs' },
            error: { oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/ErrorBody' }] },
            createdAt: { type: 'string', format: 'date-time' },
            startedAt: { type: ['string', 'null'], format: 'date-time' },
            finishedAt: { type: ['string', 'null'], format: 'date-time' },
            usage: {
              type: 'object',
              properties: { inputTokens: { type: 'integer' }, outputTokens: { type: 'integer' } },
            },
            demo: {
              type: 'boolean',
              description: 'The offline demo model answered, not a real model: the server has no model configured',
            },
            nodes: {
              description:
                "Only where the workflow's publisher shares the trace: each node's status and timing, never its data",
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  nodeId: { type: 'string' },
                  type: { type: 'string' },
                  label: { type: ['string', 'null'] },
                  status: { type: 'string' },
                  attempt: { type: 'integer' },
                  errorCode: { type: ['string', 'null'] },
                  durationMs: { type: ['integer', 'null'] },
                },
              },
            },
          },
        },
        ChatRequest: {
          type: 'object',
          required: ['model', 'messages'],
          properties: {
            model: { type: 'string', const: wf.slug! },
            messages: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['role'],
                properties: {
                  role: { type: 'string', enum: ['system', 'user', 'assistant', 'tool', 'developer'] },
                  content: {
                    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }, { type: 'null' }],
                  },
                },
              },
            },
            stream: { type: 'boolean', default: false },
          },
        },
        ChatCompletion: {
          type: 'object',
          required: ['id', 'object', 'created', 'model', 'choices'],
          properties: {
            id: { type: 'string' },
            object: { type: 'string', const: 'chat.completion' },
            created: { type: 'integer' },
            model: { type: 'string' },
            choices: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  index: { type: 'integer' },
                  finish_reason: { type: 'string' },
                  message: {
                    type: 'object',
                    properties: { role: { type: 'string', const: 'assistant' }, content: { type: 'string' } },
                  },
                },
              },
            },
            usage: {
              type: 'object',
              properties: {
                prompt_tokens: { type: 'integer' },
                completion_tokens: { type: 'integer' },
                total_tokens: { type: 'integer' },
              },
            },
          },
        },
        ModelList: {
          type: 'object',
          required: ['object', 'data'],
          properties: {
            object: { type: 'string', const: 'list' },
            data: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'object', 'created', 'owned_by'],
                properties: {
                  id: { type: 'string', description: 'The slug; `model` in chat completions' },
                  object: { type: 'string', const: 'model' },
                  created: { type: 'integer', description: 'Unix seconds: when the current version was published' },
                  owned_by: { type: 'string', const: 'paiflow' },
                },
              },
            },
          },
        },
        ErrorBody: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string' }, message: { type: 'string' }, path: { type: 'string' } },
        },
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { $ref: '#/components/schemas/ErrorBody' } },
        },
      },
    },
  };
}
