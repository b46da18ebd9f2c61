/** Provider-neutral chat types. The OpenAI-compatible provider maps these onto the `openai` SDK. */
import type { ImageRequest, ImageResponse, SpeechRequest, SpeechResponse } from '../media/types';
import type { PriceTable } from '../config/price-table-schema';

export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string; // JSON text, as the model produced it
}

export type ChatMessage =
  | { role: 'system'; content: string }
  /** `images`: data: URLs (or https URLs) sent as image_url content parts after the text (vision). */
  | { role: 'user'; content: string; images?: string[] }
  | { role: 'assistant'; content: string | null; toolCalls?: ChatToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ChatTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>; // JSON Schema
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (part of `inputTokens`, priced at the cached rate). */
  cachedTokens?: number;
  /** USD at the model's list price (engine/llm/prices.ts); null: the price is unknown; 0 for the demo model. */
  costUsd?: number | null;
  /** The offline demo model answered (some of) these calls, not a real model. Absent otherwise. */
  demo?: true;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  jsonMode?: boolean;
  /**
   * Structured output: the reply is one JSON object that should match `schema` (a JSON Schema). Sent as
   * `response_format: json_schema` (not strict), or as `json_object` with `wire: 'json_object'` for servers without
   * JSON-schema output; the offline demo model fills the schema from the last user message (demo-structured.ts).
   */
  responseFormat?: ResponseFormat;
  tools?: ChatTool[];
  /** When set, the provider streams and calls this for each text delta. */
  onToken?: (delta: string) => void;
  signal?: AbortSignal;
  /** Retries on 429/5xx/connection errors for this request (the SDK's backoff); default: the provider's. */
  maxRetries?: number;
}

export interface ResponseFormat {
  name: string;
  schema: Record<string, unknown>;
  wire?: 'json_schema' | 'json_object';
}

export interface ChatResponse {
  text: string;
  toolCalls: ChatToolCall[];
  usage: Usage;
  model: string;
  /** e.g. "openai-compatible" or "demo"; shown in outputs so users know what answered. */
  provider: string;
  /** `gen_ai.provider.name` for traces: "openai", "deepseek", "azure.ai.openai" … (see genai-provider-name.ts). */
  providerName?: string;
  finishReason?: string;
}

export interface LlmProvider {
  readonly id: string;
  /** Human-readable, e.g. "PaiFlow demo model (offline, deterministic — not a real LLM)". */
  readonly label: string;
  /** The offline demo model, not a real one: whatever used it says so (engine/runtime/demo-model-use.ts). */
  readonly demo?: boolean;
  chat(req: ChatRequest): Promise<ChatResponse>;
  /** Text to speech (/audio/speech); absent: this provider has none. */
  speech?(req: SpeechRequest): Promise<SpeechResponse>;
  /** Image generation (/images/generations); absent: this provider has none. */
  images?(req: ImageRequest): Promise<ImageResponse>;
}

/** Settings a node may give to pick a provider; `apiKey` is resolved from a named secret, never stored in config. */
export interface ProviderSettings {
  baseURL?: string;
  apiKey?: string;
  /** A credential's own prices (over MODEL_PRICES and the built-in list). */
  prices?: PriceTable;
}

export type LlmResolver = (settings?: ProviderSettings) => LlmProvider;
