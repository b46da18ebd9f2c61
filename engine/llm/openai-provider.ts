/**
 * LlmProvider for any OpenAI-compatible Chat Completions endpoint (OpenAI, Azure-style proxies, vLLM, Ollama, …),
 * built on the official `openai` SDK so retries/backoff (429, 5xx, connection errors) and timeouts come from it.
 *
 * Notes:
 * - `max_tokens` (not `max_completion_tokens`) is sent because it is what most compatible servers understand.
 * - When a stream is aborted the SDK ends iteration silently, so we check the signal after the loop ourselves.
 * - The SDK gets a signal of ours per call, never the caller's: it adds an abort listener to the signal it is given
 *   on every attempt and never removes it, so an agent's rounds on one node signal piled them up (a listener leak,
 *   MaxListenersExceededWarning after ten). See withCallSignal().
 * - A streaming request answered with plain JSON (a server that ignores `stream`) is read as that JSON answer.
 * - Error messages are built by us, never copied wholesale: upstream 401 bodies echo (parts of) the key.
 * - Every response's usage carries `costUsd` at the configured prices (null when the model has none), so whoever
 *   sums usage (the agent's model chain, the run) sums cost too. Cached prompt tokens come from
 *   `prompt_tokens_details.cached_tokens` (OpenAI, DashScope) or `prompt_cache_hit_tokens` (DeepSeek).
 */
import { setMaxListeners } from 'node:events';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { PaiError } from '../errors';
import { imagesVia, speechVia } from '../media/openai-media';
import type { ImageRequest, ImageResponse, SpeechRequest, SpeechResponse } from '../media/types';
import { guardErrorIn } from '../net/ssrf-guard';
import { genAiProviderName } from './genai-provider-name';
import { BUILT_IN_MODEL_PRICES, type ModelPrices } from './prices';
import type { ChatMessage, ChatRequest, ChatResponse, ChatToolCall, LlmProvider, Usage } from './types';

type Params = Omit<ChatCompletionCreateParamsNonStreaming, 'stream'>;

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * What a server run without a key (Ollama, vLLM, LM Studio) is sent as its API key: the SDK refuses to start without
 * one (and would read OPENAI_API_KEY from the environment in its place), and these servers ignore it.
 */
export const NO_KEY_PLACEHOLDER = 'no-key';

export interface OpenAiProviderOptions {
  /** Absent: the server needs none (NO_KEY_PLACEHOLDER is sent). */
  apiKey?: string;
  baseURL?: string;
  maxRetries?: number;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
  /** Prices for `usage.costUsd`; default: the built-in list. */
  prices?: ModelPrices;
}

/** Host part only (no userinfo, path or query), for labels and health output. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid-url';
  }
}

export function abortError(message = 'The operation was aborted'): Error {
  const err = new Error(message);
  err.name = 'AbortError';
  return err;
}

export class OpenAiCompatibleProvider implements LlmProvider {
  readonly id = 'openai-compatible';
  readonly label: string;
  /** gen_ai.provider.name of the base URL's host. */
  readonly providerName: string;
  private readonly client: OpenAI;
  /** Empty: the server was given no key. */
  private readonly apiKey: string;
  private readonly prices: ModelPrices;

  constructor(opts: OpenAiProviderOptions) {
    const baseURL = opts.baseURL || DEFAULT_OPENAI_BASE_URL;
    this.apiKey = opts.apiKey?.trim() ?? '';
    this.prices = opts.prices ?? BUILT_IN_MODEL_PRICES;
    this.label = `OpenAI-compatible (${hostOf(baseURL)})`;
    this.providerName = genAiProviderName(baseURL);
    this.client = new OpenAI({
      apiKey: this.apiKey || NO_KEY_PLACEHOLDER,
      baseURL,
      maxRetries: opts.maxRetries,
      timeout: opts.timeoutMs,
      fetch: opts.fetch,
    });
  }

  /** The ids `GET {baseURL}/models` lists (the account's models), at most `max`; errors mapped as a chat's are. */
  async listModels(max = 1000): Promise<string[]> {
    const ids: string[] = [];
    try {
      for await (const model of this.client.models.list()) {
        ids.push(model.id);
        if (ids.length >= max) break;
      }
      return ids;
    } catch (err) {
      throw this.mapError(err);
    }
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    if (req.signal?.aborted) throw abortError();
    const params: Params = {
      model: req.model,
      messages: req.messages.map(toWire),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      ...(req.jsonMode || req.responseFormat?.wire === 'json_object'
        ? { response_format: { type: 'json_object' as const } }
        : req.responseFormat
          ? {
              response_format: {
                type: 'json_schema' as const,
                json_schema: { name: req.responseFormat.name, schema: req.responseFormat.schema, strict: false },
              },
            }
          : {}),
      ...(req.tools?.length
        ? {
            tools: req.tools.map((t) => ({
              type: 'function' as const,
              function: { name: t.name, description: t.description, parameters: t.parameters },
            })),
          }
        : {}),
    };
    try {
      return await withCallSignal(req.signal, (signal) => {
        const call = { ...req, signal };
        return req.onToken ? this.streamChat(params, call) : this.plainChat(params, call);
      });
    } catch (err) {
      throw this.mapError(err, req.signal);
    }
  }

  async speech(req: SpeechRequest): Promise<SpeechResponse> {
    if (req.signal?.aborted) throw abortError();
    try {
      return await withCallSignal(req.signal, (signal) => speechVia(this.client, this.id, { ...req, signal }));
    } catch (err) {
      throw this.mapError(err, req.signal);
    }
  }

  async images(req: ImageRequest): Promise<ImageResponse> {
    if (req.signal?.aborted) throw abortError();
    try {
      return await withCallSignal(req.signal, (signal) => imagesVia(this.client, this.id, { ...req, signal }));
    } catch (err) {
      throw this.mapError(err, req.signal);
    }
  }

  private async plainChat(params: Params, req: ChatRequest): Promise<ChatResponse> {
    const res = await this.client.chat.completions.create(
      { ...params, stream: false },
      { signal: req.signal, ...(req.maxRetries !== undefined ? { maxRetries: req.maxRetries } : {}) },
    );
    return this.fromCompletion(res, req);
  }

  private fromCompletion(res: ChatCompletion, req: ChatRequest): ChatResponse {
    const choice = res.choices?.[0];
    const toolCalls: ChatToolCall[] = [];
    for (const tc of choice?.message?.tool_calls ?? []) {
      if (tc.type === 'function')
        toolCalls.push({ id: tc.id, name: tc.function.name, arguments: tc.function.arguments });
    }
    return {
      text: choice?.message?.content ?? '',
      toolCalls,
      usage: this.prices.priced(toUsage(res.usage), req.model, res.model),
      model: res.model || req.model,
      provider: this.id,
      providerName: this.providerName,
      finishReason: choice?.finish_reason ?? undefined,
    };
  }

  private async streamChat(params: Params, req: ChatRequest): Promise<ChatResponse> {
    const { data: stream, response } = await this.client.chat.completions
      .create(
        { ...params, stream: true, stream_options: { include_usage: true } },
        { signal: req.signal, ...(req.maxRetries !== undefined ? { maxRetries: req.maxRetries } : {}) },
      )
      .withResponse();
    // Some compatible servers ignore `stream` and answer one plain chat.completion; the SDK would read that body as
    // an SSE stream with no events (an empty reply). The stream has not read the body yet, so read it as JSON.
    if (isJson(response.headers.get('content-type'))) {
      const res = this.fromCompletion(await this.plainBody(response), req);
      if (res.text) req.onToken!(res.text);
      return res;
    }
    let text = '';
    let model = req.model;
    let finishReason: string | undefined;
    let usage: Usage = toUsage(undefined);
    const parts = new Map<number, ChatToolCall>();
    for await (const chunk of stream) {
      if (chunk.model) model = chunk.model;
      if (chunk.usage) usage = toUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta;
      if (delta?.content) {
        text += delta.content;
        req.onToken!(delta.content);
      }
      for (const tc of delta?.tool_calls ?? []) {
        const p = parts.get(tc.index) ?? { id: '', name: '', arguments: '' };
        if (tc.id) p.id = tc.id;
        if (tc.function?.name) p.name = tc.function.name;
        if (tc.function?.arguments) p.arguments += tc.function.arguments;
        parts.set(tc.index, p);
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    if (req.signal?.aborted) throw abortError();
    const toolCalls = [...parts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, p]) => ({ ...p, id: p.id || `call_${index}` }));
    return {
      text,
      toolCalls,
      usage: this.prices.priced(usage, req.model, model),
      model,
      provider: this.id,
      providerName: this.providerName,
      finishReason,
    };
  }

  /** A plain JSON answer to a streaming request: a chat.completion, or an error object some servers send with 200. */
  private async plainBody(response: Response): Promise<ChatCompletion> {
    const body = (await response.json()) as ChatCompletion & { error?: { message?: unknown } };
    if (body?.error) {
      const upstream = this.redact(String(body.error.message ?? JSON.stringify(body.error)));
      throw new PaiError('LLM_ERROR', `${this.label} error: ${upstream}`);
    }
    if (!Array.isArray(body?.choices))
      throw new PaiError('LLM_ERROR', `${this.label} answered JSON that is not a chat completion`);
    return body;
  }

  private mapError(err: unknown, signal?: AbortSignal): unknown {
    if (err instanceof PaiError) return err;
    // The SSRF guard refused the base URL (or a redirect): the SDK reports that as a connection error.
    const refused = err instanceof APIConnectionError ? guardErrorIn(err) : undefined;
    if (refused && !signal?.aborted) return refused;
    if (signal?.aborted || err instanceof APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
      return abortError();
    }
    if (err instanceof APIConnectionTimeoutError) {
      return new PaiError('LLM_UNAVAILABLE', `LLM request to ${this.label} timed out`, {
        retryable: true,
      });
    }
    if (err instanceof APIConnectionError) {
      return new PaiError('LLM_UNAVAILABLE', `Could not connect to ${this.label}`, { retryable: true });
    }
    if (err instanceof APIError) {
      const status = err.status ?? 0;
      const details = { upstreamStatus: err.status, upstreamCode: err.code ?? undefined };
      if (status === 401 || status === 403) {
        const msg = this.apiKey
          ? `${this.label} rejected the API key (HTTP ${status}); check the configured key`
          : `${this.label} answered HTTP ${status} to a request without an API key: give it a credential with its key`;
        return new PaiError('LLM_AUTH', msg, { retryable: false, details });
      }
      const upstream = this.redact(err.message);
      if (status === 429) {
        return new PaiError('LLM_RATE_LIMITED', `${this.label} rate limit: ${upstream}`, {
          retryable: true,
          details,
        });
      }
      if (status >= 500) {
        return new PaiError('LLM_UNAVAILABLE', `${this.label} error: ${upstream}`, {
          retryable: true,
          details,
        });
      }
      return new PaiError('LLM_ERROR', `${this.label} error: ${upstream}`, { details });
    }
    const msg = err instanceof Error ? err.message : String(err);
    return new PaiError('LLM_ERROR', `LLM call failed: ${this.redact(msg)}`);
  }

  /** Strips the configured key and anything key-shaped (OpenAI echoes "Incorrect API key provided: sk-…"). */
  private redact(msg: string): string {
    let out = this.apiKey ? msg.split(this.apiKey).join('[redacted]') : msg;
    out = out.replace(/\b(sk|pk|rk|key)-[\w*.-]{4,}/gi, '[redacted]');
    return out.length > 500 ? `${out.slice(0, 500)}…` : out;
  }
}

function toWire(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: m.role, content: m.content };
    case 'user':
      // Vision: the text, then each image as an image_url part.
      return m.images?.length
        ? {
            role: 'user',
            content: [
              { type: 'text', text: m.content },
              ...m.images.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
            ],
          }
        : { role: 'user', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length
          ? {
              tool_calls: m.toolCalls.map((tc) => ({
                id: tc.id,
                type: 'function' as const,
                function: { name: tc.name, arguments: tc.arguments },
              })),
            }
          : {}),
      };
  }
}

/**
 * Runs `call` with a signal of its own that follows `signal`, and removes its one listener from `signal` when the call
 * ends. The SDK's listeners (one per attempt, retries included) go on the call's signal and are dropped with it.
 */
async function withCallSignal<T>(
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!signal) return call(undefined);
  const own = new AbortController();
  // Up to maxRetries + 1 SDK listeners, all released with this call: no leak to warn about.
  setMaxListeners(0, own.signal);
  const forward = () => own.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  try {
    return await call(own.signal);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}

function isJson(contentType: string | null): boolean {
  const media = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || media.endsWith('+json');
}

/** DeepSeek reports its cache hits in a field of its own. */
type WireUsage = OpenAI.CompletionUsage & { prompt_cache_hit_tokens?: number };

function toUsage(u: WireUsage | null | undefined): Usage {
  return {
    inputTokens: u?.prompt_tokens ?? 0,
    outputTokens: u?.completion_tokens ?? 0,
    cachedTokens: u?.prompt_tokens_details?.cached_tokens ?? u?.prompt_cache_hit_tokens ?? 0,
  };
}
