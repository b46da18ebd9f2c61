/**
 * The `stream: true` answer of the chat-completions facade: SSE of `chat.completion.chunk`s. A role chunk, then
 * content deltas forwarded live from the `node.token` events of the node the chosen end output is (exactly)
 * `{{<node>.output.text}}` of — with a fallback chain, the first of its nodes that streams — then whatever of the
 * final content was not streamed (all of it when nothing streamed, e.g. a template node; nothing when the tokens are
 * not a prefix of it, e.g. a retried node or an agent that spoke before calling a tool), then a
 * `finish_reason: 'stop'` chunk with usage, then `data: [DONE]`. A run that fails (or is still pending) ends the
 * stream with `data: {"error":{…}}` instead. A client that goes away stops the stream, not the run (poll the
 * `location` / x-run-id).
 */
import type { TraceEvent } from '@/engine/events/types';
import type { PublishedWorkflow } from '@/engine/store/publishing';
import type { RunRecord } from '@/engine/store/types';
import type { App } from '../app-types';
import { createdOf, errorJson, failedError, pendingError, TERMINAL, usageOf } from './answers';
import { contentFromOutputs } from './mapping';
import { waitForRunToSettle } from '../runs/run-waiter';
import { SSE_HEADERS } from '../runs/sse';

/** How long a stream follows a run before it answers RUN_PENDING (tokens and keep-alives flow meanwhile). */
const STREAM_MAX_MS = 3_600_000;
const KEEP_ALIVE_MS = 15_000;

export function streamAnswer(
  app: App,
  req: Request,
  wf: PublishedWorkflow,
  run: RunRecord,
  sources: string[],
  urls: { statusUrl: string; eventsUrl: string },
  headers: Record<string, string>,
): Response {
  const id = `chatcmpl-${run.id}`;
  const created = createdOf(run);
  const data = (v: unknown) => `data: ${typeof v === 'string' ? v : JSON.stringify(v)}\n\n`;
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
    data({
      id,
      object: 'chat.completion.chunk',
      created,
      model: wf.slug,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      ...extra,
    });
  return streamRunTokens(app, req, run, sources, urls, headers, {
    opening: () => [chunk({ role: 'assistant' }, null)],
    delta: (d) => chunk({ content: d }, null),
    async succeeded(done, streamed) {
      const content = contentFromOutputs(done.outputs);
      const frames: string[] = [];
      // Whatever the live tokens did not carry: everything when the node streamed nothing (e.g. a template node).
      if (content.startsWith(streamed) && content.length > streamed.length)
        frames.push(chunk({ content: content.slice(streamed.length) }, null));
      frames.push(chunk({}, 'stop', { usage: await usageOf(app, done.id) }), data('[DONE]'));
      return frames;
    },
    error: (error) => data({ error }),
  });
}

/** How a token stream (streamRunTokens) writes its frames: each function returns whole SSE frames. */
export interface TokenStreamFormat {
  /** Sent first, before any token. */
  opening(): string[];
  /** One live token (a delta of the answer). */
  delta(d: string): string;
  /** The run succeeded; `streamed` is what the deltas carried. The last frames of the stream. */
  succeeded(done: RunRecord, streamed: string): Promise<string[]>;
  /** The run failed or is still pending (RUN_FAILED / RUN_PENDING), or the stream itself failed (INTERNAL). */
  error(error: Record<string, unknown>): string;
}

/**
 * Follows a run and streams the live `node.token` events of its answer's source node (see the header), then the
 * frames `format` makes of the outcome. Shared by the chat-completions facade and the chat apps (lib/server/chat/).
 */
export function streamRunTokens(
  app: App,
  req: Request,
  run: RunRecord,
  sources: string[],
  urls: { statusUrl: string; eventsUrl: string },
  headers: Record<string, string>,
  format: TokenStreamFormat,
): Response {
  const enc = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let lastSeq = 0;
      let streamed = '';
      let source: string | null = null; // with a fallback chain, the first listed node that streams
      const send = (frame: string) => {
        if (closed) return;
        try {
          controller.enqueue(enc.encode(frame));
        } catch {
          /* closed */
        }
      };
      const onEvent = (e: TraceEvent) => {
        if (closed || e.seq <= lastSeq) return;
        lastSeq = e.seq;
        if (e.type !== 'node.token' || !e.nodeId || !sources.includes(e.nodeId)) return;
        if (source === null) source = e.nodeId;
        if (e.nodeId !== source) return;
        const d = e.data.delta ?? e.data.token;
        if (typeof d !== 'string' || !d) return;
        streamed += d;
        send(format.delta(d));
      };
      // From seq 0: the bus still holds every event of a run that started moments ago, so no token is missed.
      const unsubscribe = app.bus.subscribe(run.id, 0, onEvent);
      const ka = setInterval(() => send(': keep-alive\n\n'), KEEP_ALIVE_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(ka);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      cleanup = close;
      req.signal.addEventListener('abort', close, { once: true });

      for (const f of format.opening()) send(f);
      try {
        const done = (await waitForRunToSettle(app, run.id, { timeoutMs: STREAM_MAX_MS, signal: req.signal })) ?? run;
        if (closed || req.signal.aborted) return close();
        if (!TERMINAL.has(done.status)) {
          send(format.error(pendingError(done, urls)));
          return close();
        }
        if (done.status !== 'succeeded') {
          send(format.error(failedError(done)));
          return close();
        }
        // The run can be seen to end before the bus has delivered its last tokens (Redis reads them asynchronously):
        // the store has every event, so the tokens not yet forwarded are read from it, in order.
        for (let batch: TraceEvent[]; !closed;) {
          batch = await app.store.getEvents(run.id, lastSeq, 1000);
          for (const e of batch) onEvent(e);
          if (batch.length < 1000) break;
        }
        for (const f of await format.succeeded(done, streamed)) send(f);
      } catch (e) {
        send(format.error(errorJson(500, 'INTERNAL', 'internal error; see the server log')));
        console.error('[paiflow] answer stream failed', run.id, (e as Error)?.message);
      }
      close();
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: { ...SSE_HEADERS, ...headers },
  });
}
