/**
 * Attribute names of the spans we export. The GenAI ones follow OpenTelemetry's GenAI semantic conventions
 * (https://github.com/open-telemetry/semantic-conventions-genai); they are written out here rather than imported
 * because `@opentelemetry/semantic-conventions` ships them only in its unstable `incubating` entry point, which may
 * rename them in a minor release. Our own are under `paiflow.`.
 */
export const GENAI = {
  operation: 'gen_ai.operation.name',
  /** "openai", "deepseek", "azure.ai.openai" … (engine/llm/genai-provider-name.ts); backends group spans by it. */
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  agentName: 'gen_ai.agent.name',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  dataSourceId: 'gen_ai.data_source.id',
  // Content: only with OTEL_EXPORT_CONTENT=1.
  outputMessages: 'gen_ai.output.messages',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  retrievalQuery: 'gen_ai.retrieval.query.text',
  retrievalDocuments: 'gen_ai.retrieval.documents',
} as const;

/** Values of gen_ai.operation.name. */
export const OPERATION = {
  chat: 'chat',
  executeTool: 'execute_tool',
  invokeAgent: 'invoke_agent',
  invokeWorkflow: 'invoke_workflow',
  retrieval: 'retrieval',
} as const;

/** Stable semantic convention (general): the class of error, here our error code. */
export const ERROR_TYPE = 'error.type';

export const PAIFLOW = {
  runId: 'paiflow.run.id',
  runStatus: 'paiflow.run.status',
  runResumed: 'paiflow.run.resumed',
  workflowId: 'paiflow.workflow.id',
  versionId: 'paiflow.workflow.version_id',
  engine: 'paiflow.engine',
  nodeId: 'paiflow.node.id',
  nodeType: 'paiflow.node.type',
  nodeStatus: 'paiflow.node.status',
  attempt: 'paiflow.node.attempt',
  errorCode: 'paiflow.error.code',
  round: 'paiflow.agent.round',
  stepKind: 'paiflow.agent.step.kind',
  stepId: 'paiflow.agent.step.id',
  toolCalls: 'paiflow.agent.tool_calls',
  toolStatus: 'paiflow.tool.status',
  deniedReason: 'paiflow.tool.denied_reason',
  approval: 'paiflow.tool.approval',
  hits: 'paiflow.retrieval.hits',
  retrievalMode: 'paiflow.retrieval.mode',
  retrievalSource: 'paiflow.retrieval.source',
  truncated: 'paiflow.trace.truncated',
  // Content: only with OTEL_EXPORT_CONTENT=1.
  nodeInput: 'paiflow.node.input',
  nodeOutput: 'paiflow.node.output',
  runOutputs: 'paiflow.run.outputs',
} as const;
