/**
 * OpenAI-compatible facade for published workflows: POST /api/v1/chat/completions, where `model` is the workflow's
 * slug and the Bearer token is one of its API keys, so any OpenAI client (SDKs, tools with a "base URL" setting) can
 * call a workflow. Each request is an ordinary run of the workflow's current published version (like
 * POST /api/v1/workflows/:slug/run in sync or stream mode), with the same concurrency cap and Idempotency-Key rules.
 *
 * Order of checks: the body must be JSON with a `model` (413 / 415 / 400) — the slug lives in the body — then the
 * key (401) and its rate limit (429), the workflow (404 / 403 for another workflow's key), then the rest of the body
 * (400 with a path; body.ts). Messages become run inputs and run outputs the assistant's content as
 * mapping.ts describes.
 *
 * Answers:
 *   - succeeded → 200 `chat.completion` (id `chatcmpl-<runId>`, usage summed from the run's LLM node snapshots);
 *   - failed / cancelled / interrupted → 422 RUN_FAILED (the run's error and id in the message);
 *   - still running after SYNC_TIMEOUT_MS, or paused on human input → 202 with
 *     `{ error: { code: 'RUN_PENDING', statusUrl, … } }` and `location` so the client can poll the run (never 504);
 *   - errors keep PaiFlow's `{ error: { code, message, path? } }` and add OpenAI's `type` and `param`.
 * `stream: true` → SSE of `chat.completion.chunk`s (stream.ts).
 */
import { startConfigSchema } from '@/engine/nodes/start';
import { readJson } from '@/lib/http/body';
import { authorizeForSlug } from '../publishing/api-keys';
import { getApp } from '../app';
import { createdOf, errorAnswer, failedError, pendingError, TERMINAL, usageOf } from './answers';
import { chatBodySchema, modelOnlySchema } from './body';
import { contentFromOutputs, inputsFromMessages, streamingSources } from './mapping';
import { streamAnswer } from './stream';
import {
  checkSameInputs,
  idempotencyKeyOf,
  runHeaders,
  runUrls,
  startRun,
  versionToRun,
} from '../publishing/published-runs';
import { waitForRunToSettle } from '../runs/run-waiter';
import { originOf } from '../publishing/v1-http';
import { v1Settings } from '../publishing/v1-settings';

export { openAiErrorType } from './answers';
export { chatBodySchema, type ChatBody } from './body';
export {
  CONTENT_OUTPUT_NAMES,
  contentFromOutputs,
  inputsFromMessages,
  MESSAGE_INPUT_NAMES,
  messageText,
  streamingSources,
} from './mapping';

export async function chatCompletions(req: Request): Promise<Response> {
  try {
    return await answer(req);
  } catch (e) {
    return errorAnswer(e, req);
  }
}

async function answer(req: Request): Promise<Response> {
  const app = await getApp();
  const raw = await readJson(req, modelOnlySchema, { limit: app.config.maxBodyBytes });
  const { key, workflow: wf } = await authorizeForSlug(app, req, raw.model);
  const body = chatBodySchema.parse(raw); // ZodError → 400 with a path
  const idempotencyKey = idempotencyKeyOf(req);
  const version = await versionToRun(app, wf);
  const start = version.graph.nodes.find((n) => n.type === 'start');
  const decls = startConfigSchema.safeParse(start?.data?.config ?? {});
  const inputs = inputsFromMessages(
    decls.success ? decls.data.inputs : [],
    body.messages,
    (raw as { messages?: unknown }).messages,
  );

  const { run, created } = await startRun(
    app,
    wf,
    version,
    key,
    { inputs, mode: body.stream ? 'stream' : 'sync' },
    idempotencyKey,
  );
  if (!created) checkSameInputs(run, inputs);
  const urls = runUrls(originOf(req), run.id);
  const headers = runHeaders(run.id, urls.statusUrl, created);

  if (body.stream) return streamAnswer(app, req, wf, run, streamingSources(version.graph), urls, headers);

  const done =
    (await waitForRunToSettle(app, run.id, { timeoutMs: v1Settings(app).syncTimeoutMs, signal: req.signal })) ?? run;
  if (!TERMINAL.has(done.status))
    return Response.json(
      { error: pendingError(done, urls), runId: done.id, status: done.status, ...urls },
      { status: 202, headers },
    );
  if (done.status !== 'succeeded') return Response.json({ error: failedError(done) }, { status: 422, headers });
  return Response.json(
    {
      id: `chatcmpl-${done.id}`,
      object: 'chat.completion',
      created: createdOf(done),
      model: wf.slug,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: contentFromOutputs(done.outputs) },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: await usageOf(app, done.id),
    },
    { headers },
  );
}
