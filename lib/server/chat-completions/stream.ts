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
  const enc = new TextEncoder();
  const id = `chatcmpl-${run.id}`;
  const created = createdOf(run);
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: wf.slug,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...extra,
  });
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let lastSeq = 0;
      let streamed = '';
      let source: string | null = null; // with a fallback chain, the first listed node that streams
      const send = (data: unknown) => {
        if (closed) return;
        try {
          controller.enqueue(enc.encode(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`));
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
        send(chunk({ content: d }, null));
      };
      // From seq 0: the bus still holds every event of a run that started moments ago, so no token is missed.
      const unsubscribe = app.bus.subscribe(run.id, 0, onEvent);
      const ka = setInterval(() => {
        if (!closed)
          try {
            controller.enqueue(enc.encode(': keep-alive\n\n'));
          } catch {
            /* closed */
          }
      }, KEEP_ALIVE_MS);
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

      send(chunk({ role: 'assistant' }, null));
      try {
        const done = (await waitForRunToSettle(app, run.id, { timeoutMs: STREAM_MAX_MS, signal: req.signal })) ?? run;
        if (closed || req.signal.aborted) return close();
        if (!TERMINAL.has(done.status)) {
          send({ error: pendingError(done, urls) });
          return close();
        }
        if (done.status !== 'succeeded') {
          send({ error: failedError(done) });
          return close();
        }
        // The run can be seen to end before the bus has delivered its last tokens (Redis reads them asynchronously):
        // the store has every event, so the tokens not yet forwarded are read from it, in order.
        for (let batch: TraceEvent[]; !closed;) {
          batch = await app.store.getEvents(run.id, lastSeq, 1000);
          for (const e of batch) onEvent(e);
          if (batch.length < 1000) break;
        }
        const content = contentFromOutputs(done.outputs);
        // Whatever the live tokens did not carry: everything when the node streamed nothing (e.g. a template node).
        if (content.startsWith(streamed) && content.length > streamed.length)
          send(chunk({ content: content.slice(streamed.length) }, null));
        send(chunk({}, 'stop', { usage: await usageOf(app, done.id) }));
        send('[DONE]');
      } catch (e) {
        send({ error: errorJson(500, 'INTERNAL', 'internal error; see the server log') });
        console.error('[paiflow] chat completion stream failed', run.id, (e as Error)?.message);
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
