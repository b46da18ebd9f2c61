/**
 * What each route of app/api does, in the words docs/http-api.md shows beside the methods and roles the generator
 * reads from the route files (scripts/docs/http-api.ts). Every route file needs an entry here and every entry a route
 * file, else the generator stops naming them. `access` says who may call a route that is not wrapped in `guarded()`
 * (whose least role the generator reads from the code).
 */
export interface RouteNote {
  /** As in the URL: `/api/workflows/:id` for app/api/workflows/[id]/route.ts, `/api/*` for a catch-all. */
  path: string;
  /** Who may call the methods not wrapped in `guarded()`: one answer for all, or one per method. */
  access?: string | Record<string, string>;
  text: string;
}

export interface RouteGroup {
  title: string;
  routes: RouteNote[];
}

const SESSION = 'signed in (session or token)';

export const ROUTE_GROUPS: RouteGroup[] = [
  {
    title: 'Accounts and workspaces',
    routes: [
      {
        path: '/api/auth/state',
        access: 'open',
        text:
          '`{ setupRequired, authenticated, user?: { id, email, name }, workspaces?, workspaceId?, role?, sso?: ' +
          '{ name, startUrl } }` (`sso`: signed out, with single sign-on configured)',
      },
      {
        path: '/api/auth/setup',
        access: 'open',
        text: '`{ email, password, name }` → 201 + session cookie while no user exists (else 409 `SETUP_DONE`)',
      },
      {
        path: '/api/auth/login',
        access: 'open',
        text:
          '`{ email, password }` → 200 + cookie; 401 `INVALID_CREDENTIALS`; 429 `TOO_MANY_ATTEMPTS` + ' +
          '`Retry-After`',
      },
      {
        path: '/api/auth/logout',
        access: 'open',
        text: 'revokes the session (the cookie stops working at once, also if it was copied) and clears the cookie',
      },
      {
        path: '/api/auth/oidc/start',
        access: 'open',
        text:
          'single sign-on ([Single sign-on](single-sign-on.md)): `?next=/path` → 302 to the OpenID Connect issuer ' +
          '(PKCE S256, state and nonce in a sealed httpOnly cookie); off or unreachable → 302 `/login?error=<CODE>`',
      },
      {
        path: '/api/auth/oidc/callback',
        access: 'open',
        text:
          "the issuer's redirect back: state, PKCE, nonce and the ID token checked → 302 to `next` + session cookie " +
          '(the first sign-in creates the user); refused → 302 `/login?error=SSO_…`, no session',
      },
      {
        path: '/api/auth/password',
        access: SESSION,
        text:
          '`{ currentPassword, newPassword }` → 204 (other sessions signed out, all the user’s personal access ' +
          'tokens revoked)',
      },
      {
        path: '/api/auth/tokens',
        access: { GET: SESSION, POST: 'a signed-in browser session only (a token cannot mint tokens)' },
        text: 'list your personal access tokens; `{ name, workspaceId? }` → 201 `{ id, token }` (shown once)',
      },
      { path: '/api/auth/tokens/:id', access: SESSION, text: 'revoke one of your tokens (another user’s is 404)' },
      {
        path: '/api/workspaces',
        access: SESSION,
        text: 'your workspaces with your role; `{ name }` → 201 `{ id, name }` (you are its owner)',
      },
      {
        path: '/api/auth/workspace',
        access: SESSION,
        text: 'switch the session’s workspace `{ workspaceId }` (tokens use the `X-Workspace-Id` header instead)',
      },
      { path: '/api/workspaces/:id/invitations', text: '`{ email, role }` → 201 `{ token, url }`' },
      {
        path: '/api/auth/accept-invite',
        access: 'open',
        text: '`{ token, name, password }` → 201 + cookie, signed in to the workspace that invited you',
      },
      { path: '/api/workspaces/:id/members', text: 'members and roles' },
      {
        path: '/api/workspaces/:id/members/:userId',
        text: '`{ role }` (owners only make or unmake owners; the last owner stays)',
      },
      {
        path: '/api/credentials',
        text:
          'list; `{ name, type: openai|http_header|bearer|basic, data, hosts? }` → 201 `{ id, name, type, masked, ' +
          'hosts, provider? }`; never the value. `openai` data: `{ provider?, baseUrl?, apiKey, prices? }`',
      },
      {
        path: '/api/credentials/:id',
        text: 'read (masked); delete (nodes that use it fail with `CREDENTIAL_NOT_FOUND` from then on)',
      },
      {
        path: '/api/credentials/:id/test',
        text:
          "`POST { model? }` → `{ ok, latencyMs, models?, model?, error?: { code, message } }`: the provider's " +
          '`/models`, else one tiny completion; a refused key, an unreachable host or an SSRF refusal (with its ' +
          '`HTTP_ALLOWLIST` entry) is `ok: false`',
      },
      {
        path: '/api/credentials/:id/models',
        text:
          "`{ models: [{ id, kind }], source: provider|catalogue }`: the provider's list (kept 5 min), else the " +
          "catalogue's; `?kind=chat|embedding|tts|image`",
      },
      {
        path: '/api/providers',
        text:
          'the model provider catalogue: `[{ id, name, names: { en, zh }, baseUrl, docsUrl, kinds, listsModels, ' +
          "models: [{ id, kind, contextWindow?, inputUsdPerM?, outputUsdPerM? }] }]`; a credential's " +
          '`data.provider` fills its `baseUrl`',
      },
      { path: '/api/audit', text: 'the audit log, newest first' },
    ],
  },
  {
    title: 'Workflows',
    routes: [
      {
        path: '/api/workflows',
        text:
          '`GET` (`?q=`): each listed workflow has `nodeCount` and `lastRun: { id, status, createdAt, startedAt, ' +
          'finishedAt } | null` (its latest run; single-node test runs do not count); `q` keeps names or ' +
          'descriptions containing it, any case. `POST` `{ name, description?, graph, engine? }` → 201 (400 with ' +
          'code + path if invalid, nothing saved; `?draft=1` stores a structurally valid draft and returns its ' +
          '`problems`). `POST` without `graph` (`{ name?, description?, engine? }`): a blank workflow, Start → End, ' +
          'named "Untitled workflow" ("… (2)" when taken) in the request’s language unless `name` is given. `POST` ' +
          '`{ templateId, name?, description?, engine? }`: create from a gallery template → 201 workflow with ' +
          '`templateId` and `problems` (stored as a draft: a knowledge node is bound to the workspace’s knowledge ' +
          'base if it has exactly one, else `problems` asks for one); the name defaults to the template’s in the ' +
          'request’s language, a taken name becomes "name (2)"; 404 `TEMPLATE_NOT_FOUND` (path `templateId`)',
      },
      {
        path: '/api/workflows/:id',
        text: 'read (with `problems` and `warnings`); update (`revision` for conflict detection → 409); delete',
      },
      {
        path: '/api/workflows/:id/validate',
        text:
          '`{ graph?, engine? }` → `{ ok, engine, errors[], warnings[] }`; a warning never makes it not ok: ' +
          '`NO_END_ON_PATH` marks a node no edge leaves, or a branch (`details.branch`) none leaves from, on a ' +
          'path that reaches no End node',
      },
      {
        path: '/api/workflows/:id/export',
        text: 'portable JSON `{ format: "paiflow.workflow", formatVersion, workflow }` (format 2)',
      },
      {
        path: '/api/workflows/import',
        text:
          'a PaiFlow export as a new workflow (an older format is upgraded; a taken name becomes "name (2)") → 201; ' +
          'or another tool\'s: `{ format: "dify", content: "<Dify DSL YAML, app mode workflow or advanced-chat>" }`, ' +
          '`{ format: "n8n", content: <n8n workflow export: the object or its JSON text> }` → 201 the workflow, its ' +
          '`problems` and `importReport: { format, mapped, approximated, dropped }`, each entry `{ id, type, title, ' +
          'nodeIds, why, whyZh, trigger? }` (`trigger`: the body of a trigger to create once published); ' +
          '400 `IMPORT_UNREADABLE` (line, column) or `IMPORT_INVALID_DOCUMENT` with a path into `content`; an ' +
          'unknown `format` → 400 listing the three ([docs/importing.md](importing.md))',
      },
      {
        path: '/api/templates',
        text:
          'the gallery: `[{ id, name, description, category, categoryName, howTo, tags, engine, nodeCount, graph }]` ' +
          'in the request’s language — `?lang=zh-CN|en`, else `Accept-Language` (`zh`, `zh-CN`, `zh-Hans` → ' +
          'Simplified Chinese, otherwise English); node labels and Start input defaults localised too; ' +
          '`Content-Language` says which',
      },
      {
        path: '/api/node-types',
        text: 'the registry: `[{ type, version, label, category, configSchema, inputs, outputs }]`',
      },
      {
        path: '/api/workflows/:id/stats',
        text:
          '`?from= &to=` (default the last 30 days, at most 366) → `{ perDay: [{ day, runs, succeeded, failed, ' +
          'p50Ms, p95Ms, inputTokens, outputTokens, costUsd }], totals: { …, successRate }, slowestNodes: [{ nodeId, ' +
          'type, p95Ms, runs }], failingNodes: [{ nodeId, type, failures, lastError }] }` (UTC days; `successRate` ' +
          '= succeeded / (succeeded + failed); `costUsd` null when no node reported one)',
      },
      {
        path: '/api/workflows/:id/cost',
        text:
          '`?from=&to=` (default: all until now) → the workflow’s runs summed: `{ workflowId, from, to, runs, ' +
          'inputTokens, outputTokens, costUsd, unknownPriceRuns }` (`costUsd` sums the known costs; ' +
          '`unknownPriceRuns` runs used a model without a price)',
      },
    ],
  },
  {
    title: 'Runs',
    routes: [
      {
        path: '/api/workflows/:id/runs',
        text:
          'start `{ inputs, engine?, breakpoints? }` → 202 `{ runId, status, engine }`; the run history (newest ' +
          'first, with trigger, version, cost and inputs preview)',
      },
      {
        path: '/api/runs',
        text:
          'the workspace’s runs, newest first: `?workflowId= &status= &engine= &version=<n>|draft ' +
          '&trigger=editor|api|webhook|schedule|mcp|evaluation|chat &from= &to= &q= &cursor= &limit=` (50, max 200; ' +
          '`q`: run id prefix or text in the inputs) → `{ runs: [{ id, workflowId, workflowName, versionId, version, ' +
          'engine, status, trigger, createdAt, startedAt, finishedAt, durationMs, error?, costUsd, inputsPreview, ' +
          'singleNode }], nextCursor }` (keyset pages; a bad parameter → 400 with `path: "query.<name>"`; ' +
          '`singleNode`: null, or for a "run this node" run `{ nodeId, label, inputPreview }`, the input that node ' +
          'ran with)',
      },
      {
        path: '/api/runs/:runId',
        text:
          'run with its graph and per-node `{ nodeId, type, status, attempt, input, output, error, startedAt, ' +
          'finishedAt, durationMs, usage }`; `demo: true` (and `usage.demo` on each node it answered) when the ' +
          'offline demo model answered instead of a real model; a run that reached no End node is `failed` with ' +
          '`NO_END_REACHED` (`error.details.endedAt`: where it stopped)',
      },
      {
        path: '/api/runs/:runId/chat',
        text:
          'the chat turn a chat app’s run answered: `{ chat: { conversationId, messageId, answer, feedback: ' +
          '{ rating: 1 | -1, comment, at } | null } | null }` (shown on the run’s view)',
      },
      {
        path: '/api/runs/:runId/events',
        text: 'SSE, `id: <seq>`, honours `Last-Event-ID` / `?after=`, closes after the (last) terminal event',
      },
      {
        path: '/api/runs/:runId/resume',
        text: '`{ fromNodeId?, inputs? }` → 202; 409 while the run is active',
      },
      { path: '/api/runs/:runId/cancel', text: '→ 202; in-flight LLM/HTTP calls are aborted' },
      {
        path: '/api/runs/:runId/checkpoints',
        text:
          'the state history, both engines alike: `{ runId, engine, inputs, checkpoints: [{ checkpointId, step, ' +
          'nodeId, type, label, finishedAt, output }] }`, one per succeeded node in the order they finished; the ' +
          'state at a checkpoint is the inputs plus the outputs of the steps up to it',
      },
      {
        path: '/api/runs/:runId/fork',
        text:
          '`{ checkpointId, state? }` → 201 `{ runId, status, forkedFrom, reused }`: a new run of the same graph ' +
          'that reuses the steps up to the checkpoint (`state`: nodeId → a new output for one of them) and runs the ' +
          'rest; 404 `CHECKPOINT_NOT_FOUND`, 400 `FORK_STATE_NOT_AT_CHECKPOINT`',
      },
      {
        path: '/api/runs/:runId/answer',
        text:
          '`{ nodeId, answer }` for a run waiting on human input, on an agent’s tool call (`answer: { decision: ' +
          '"approve" | "edit" | "reject", arguments?, message?, callId? }`) or on a breakpoint (`{ action: ' +
          '"continue" | "step" | "stop", input? }`) → 202 (400 `INVALID_ANSWER` with a path; 409 when not waiting)',
      },
      {
        path: '/api/inbox',
        text:
          'runs waiting for a person (human input, a tool call to approve, a breakpoint) that the caller may ' +
          'answer, in every workspace where their role may edit (a viewer’s is empty): `?workflowId= &limit=` (20, ' +
          'max 100) → `{ count, runs: [{ id, workflowId, workflowName, workspaceId, workspaceName, createdAt, ' +
          'waitingSince, kind: "human_input"|"tool_approval"|"breakpoint"|"other", node: { id, label, type }, ' +
          'detail }] }`, newest first (the header’s "Waiting" badge and the editor’s notice)',
      },
      {
        path: '/api/workflows/:id/nodes/:nodeId/run',
        text:
          '`{ input?, inputs?, upstream?: { <nodeId>: output }, fromRunId? }` → the node’s outcome `{ runId, ' +
          'status, input, output, error, usage, durationMs, events }`, running no other node; 400 ' +
          '`UPSTREAM_MISSING` (path `upstream.<nodeId>`), 400 `INVALID_INPUT` (path `input.…`), 409 ' +
          '`SINGLE_NODE_IN_LOOP`; 202 `{ runId }` if still running after `SYNC_TIMEOUT_MS`',
      },
      {
        path: '/api/artifacts/:id',
        text:
          'a file a run produced (speech, images): its bytes with its content type, `inline` file name, `nosniff`, ' +
          "`default-src 'none'` CSP, ETag and byte ranges; 404 outside the run’s workspace",
      },
    ],
  },
  {
    title: 'Triggers',
    routes: [
      {
        path: '/api/workflows/:id/triggers',
        text:
          '`{ type: "webhook", auth: { type: "hmac"|"header"|"none", secret?, header?, requireTimestamp? }, mapping: ' +
          '{ <start input>: <template over body/query/headers> }, response: "async"|"wait", timeoutMs? }` → 201 ' +
          '`{ id, url, path, auth: { type, header?, requireTimestamp?, hasSecret }, secret, warnings? }` (the ' +
          'secret, given or generated, shown in this answer only; webhooks need an admin); `{ type: "schedule", ' +
          'cron, timezone?, inputs?, misfire?: "run_once"|"skip", enabled? }` → 201 `{ id, nextRunAt, nextRuns }`; ' +
          '400 `INVALID_CRON` (path `cron`), `INVALID_TIMEZONE`, a mapping reading anything but body/query/headers ' +
          '(path `mapping.<input>`)',
      },
      {
        path: '/api/workflows/:id/triggers/:triggerId',
        text:
          'read; change (a webhook’s new or regenerated secret is shown in this answer only); delete (a webhook’s ' +
          'changes need an admin)',
      },
      {
        path: '/api/workflows/:id/triggers/:triggerId/run',
        text:
          'fire now: a schedule with its inputs, a webhook with the test payload `{ body?, query?, headers? }` → ' +
          '202 `{ runId }`',
      },
      {
        path: '/api/hooks/:hookId',
        access: 'the hook’s own secret or signature (or none, if so set)',
        text:
          'a webhook call: 202 `{ runId }` (`async`) or 200 `{ runId, status, outputs }` (`wait`); a repeated ' +
          'delivery id (`webhook-id`, `Idempotency-Key`, `X-GitHub-Delivery`) answers with the first run and ' +
          '`Idempotent-Replayed: true`; 401 `MISSING_SIGNATURE` / `INVALID_SIGNATURE` / `INVALID_SECRET` / ' +
          '`MISSING_TIMESTAMP` / `INVALID_TIMESTAMP` / `WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE` with nothing started; ' +
          '400 `INVALID_DELIVERY_ID`; 404 `HOOK_NOT_FOUND`; 409 `TRIGGER_DISABLED`, `NOT_PUBLISHED`; 413, 429 as on ' +
          '`/api/v1`',
      },
    ],
  },
  {
    title: 'Publishing',
    routes: [
      {
        path: '/api/workflows/:id/publish',
        text:
          '`POST` → 201 `{ published, version, slug, endpoint, versionId, openapiUrl, corsOrigins, corsDefault }`; ' +
          '`GET` status; `DELETE` unpublish; `PATCH` `{ corsOrigins?: ["https://app.example.com"] | ["*"] | [] | ' +
          'null, publicTrace?: boolean, mcp?: boolean }`: the browser origins allowed to call this workflow’s ' +
          'endpoint (null: `CORS_ORIGINS`), applied to every v1 answer about it, errors and preflights included; ' +
          'whether key holders see the node trace of published runs; whether the MCP server offers it as a tool; ' +
          '`chat?: { enabled, title?, welcome?, suggestions?: string[], access: "public" | "code", code?, ' +
          'embedOrigins?: ["https://shop.example.com"] | ["*"] | [], historyMaxTokens?: number | null }`: the ' +
          'chat app at `/chat/:slug` (answers show `chat: { enabled, title, welcome, suggestions, access, hasCode, ' +
          'embedOrigins, historyMaxTokens, url, embedSnippet }`, never the code; a new code ends the page sessions ' +
          'of the old one; `embedOrigins`: the sites that may frame the page, default any; `historyMaxTokens`: the ' +
          'earlier turns sent with a message, null: `CHAT_HISTORY_MAX_TOKENS`); `gate?: { ' +
          'datasetId, scorers, minMean?: { <scorer>: x }, maxDrop?: { <scorer>: x }, concurrency? } | null`: ' +
          'from then on `POST` evaluates the draft first and answers 409 `EVAL_GATE_FAILED` with `failures`, ' +
          '`summary` and the comparison with the published version when it falls short; `POST { force: true }` ' +
          '(owners only, audited as `workflow.publish_forced`) publishes anyway; removing or weakening the gate ' +
          '(another dataset, a scorer removed or changed, a lower `minMean`, a higher or no `maxDrop`) is for ' +
          'owners too (403 `FORBIDDEN` otherwise), and every gate change is audited (`workflow.gate_changed`, ' +
          '`workflow.gate_weakened`)',
      },
      {
        path: '/api/workflows/:id/versions',
        text: 'the published versions, newest first, each with a diff against the draft (`draftChanges`)',
      },
      {
        path: '/api/workflows/:id/versions/:version',
        text: 'one version’s snapshot (graph + engine), e.g. to show it read-only in the editor',
      },
      { path: '/api/workflows/:id/versions/:version/rollback', text: 'rollback to that version' },
      {
        path: '/api/workflows/:id/api-keys',
        text: '→ 201 `{ id, key, prefix }` (key shown once, stored hashed); list',
      },
      {
        path: '/api/api-keys/:id',
        text: 'revoke (the next request bearing it gets 401: keys are checked against the database on every request)',
      },
      {
        path: '/api/workflows/:id/callback-secret',
        text:
          'the secret that signs this workflow’s completion callbacks (made on first read): `{ secret, createdAt }`, ' +
          'never cached',
      },
      {
        path: '/api/workflows/:id/callback-secret/rotate',
        text: 'replaces it: the next callback is signed with the new one, which the answer carries',
      },
    ],
  },
  {
    title: 'Published API and MCP (API keys, not sessions)',
    routes: [
      {
        path: '/api/v1/workflows/:slug/run',
        access: 'an API key of the workflow',
        text:
          '`Authorization: Bearer <key>`; `{ inputs, mode?: sync|stream|async, version?, callbackUrl? }` (a signed ' +
          'POST when the run ends, see [Completion callbacks](#completion-callbacks)); `Idempotency-Key`',
      },
      {
        path: '/api/v1/runs/:runId',
        access: 'an API key of the workflow',
        text:
          'published runs only (an editor run is 404); the view is `{ id, workflowId, versionId, status, inputs, ' +
          'outputs, error, usage, createdAt, startedAt, finishedAt }`, plus `nodes` (status, timing, error code; ' +
          'never node inputs or outputs) with `publicTrace`',
      },
      {
        path: '/api/v1/runs/:runId/events',
        access: 'an API key of the workflow',
        text: 'the run’s trace as Server-Sent Events (published runs only)',
      },
      {
        path: '/api/v1/runs/:runId/artifacts/:id',
        access: 'an API key of the workflow',
        text: 'a file of a published run (its outputs’ `url`s point here); another run’s file is 404',
      },
      {
        path: '/api/v1/workflows/:slug/openapi.json',
        access: 'open (it describes inputs and outputs, nothing inside the workflow)',
        text: 'OpenAPI 3.1 for the endpoint (`?version=` for another published version); see below',
      },
      {
        path: '/api/v1/models',
        access: 'an API key',
        text:
          '`{ object: "list", data: [{ id: <slug>, object: "model", created, owned_by: "paiflow" }] }`: the ' +
          'published workflows the key can call',
      },
      {
        path: '/api/v1/chat/completions',
        access: 'an API key of the workflow',
        text:
          'OpenAI-compatible: `model` = a published workflow’s slug, Bearer = one of its keys; `stream: true` ' +
          'streams its LLM tokens as `chat.completion.chunk`s (see ' +
          '[OpenAI-compatible endpoint](#openai-compatible-endpoint))',
      },
      {
        path: '/api/v1/chat/:slug',
        access: 'open',
        text:
          'a chat app’s public face `{ slug, title, welcome, suggestions, access }` (404 `CHAT_DISABLED` when the ' +
          'workflow has no chat app on)',
      },
      {
        path: '/api/v1/chat/:slug/session',
        access: 'open (with the access code for access "code")',
        text:
          '`{ code? }` → 201 `{ token, expiresAt }`: the page’s chat session, sent as `Authorization: Bearer cs_…`; ' +
          'access "code": 401 `CHAT_ACCESS_CODE_REQUIRED` without the code, 403 `CHAT_ACCESS_CODE_INVALID` for a ' +
          'wrong one, 429 `TOO_MANY_ATTEMPTS` after ten wrong ones from an address; sessions and the messages sent ' +
          'with them are rate-limited per session and per address (429 `RATE_LIMITED`, `RATE_LIMIT_PER_MIN`); an ' +
          'address opens at most `CHAT_SESSIONS_PER_VISITOR_PER_HOUR` sessions of a chat an hour (429 ' +
          '`TOO_MANY_CHAT_SESSIONS`)',
      },
      {
        path: '/api/v1/chat/:slug/messages',
        access: 'an API key of the workflow, or the page’s chat session',
        text:
          '`{ conversationId?, message, stream?: true }` → one turn, a run of the published version with the Start ' +
          'inputs `message` and `history` (`[{ role, content }]`, the latest earlier turns that fit the app’s ' +
          'token budget; the run records them as `{ $ref: "chat-history", conversationId, fromSeq, toSeq }`); SSE ' +
          '`event: token` `{ delta }` … `event: done` `{ conversationId, messageId, answer, citations, runId }` ' +
          '(`event: error` `{ error }`), or that object as JSON with `stream: false`; 404 `CONVERSATION_NOT_FOUND` ' +
          'for another caller’s conversation; 413 `CHAT_MESSAGE_TOO_LONG` over `CHAT_MESSAGE_MAX_CHARS`; 409 ' +
          '`CONVERSATION_FULL` past `CHAT_MAX_MESSAGES_PER_CONVERSATION`; a new conversation deletes the oldest ' +
          'beyond `CHAT_MAX_CONVERSATIONS_PER_VISITOR` (per session or key) and `CHAT_MAX_CONVERSATIONS_PER_APP`',
      },
      {
        path: '/api/v1/chat/:slug/messages/:messageId/feedback',
        access: 'an API key of the workflow, or the page’s chat session',
        text:
          '`{ rating: "up" | "down", comment? }` on an answer of the caller’s conversation (a second one replaces ' +
          'it) → the message with `feedback`; shown on the run’s view',
      },
      {
        path: '/api/v1/chat/:slug/conversations/:id/messages',
        access: 'an API key of the workflow, or the page’s chat session',
        text:
          '`{ conversationId, title, messages: [ { id, role, content, citations, runId, feedback, createdAt } ] }`, ' +
          'in order; only the conversation’s owner may read it',
      },
      {
        path: '/api/mcp',
        access: 'an API key',
        text:
          'MCP Streamable HTTP (stateless, JSON answers); `Authorization: Bearer <an API key>` → `tools/list` = the ' +
          'key’s opted-in published workflows (name = slug), `tools/call` runs one (sync) → the End outputs as text ' +
          'and `structuredContent`, `isError` for a failed or still-running run; 401 before any MCP for a ' +
          'missing/wrong/revoked key; GET/DELETE 405',
      },
    ],
  },
  {
    title: 'Knowledge bases',
    routes: [
      { path: '/api/knowledge-bases', text: 'create; list' },
      {
        path: '/api/knowledge-bases/:id',
        text:
          'read, with `documentCount`, `chunkCount`, `embedder` (whether the embedder covers the texts, see ' +
          '[Embedder coverage](features.md#knowledge-bases)) and `search` (the store and hybrid path its searches ' +
          'take); update `{ vectorWeight }` (hybrid search’s vector share, 0..1, `null`: the default 0.3; see ' +
          '[Retrieval](knowledge.md)); delete (its documents and its index too)',
      },
      {
        path: '/api/knowledge-bases/:id/documents',
        text:
          'upload (multipart `file` → 202 the document; several `file` fields → 202 `{ documents }`, all checked ' +
          'before any is kept; an optional `metadata` field, a JSON object; or JSON `{ title, text, metadata? }`); ' +
          'list, with status, progress (`embeddedChunks` of `totalChunks` while it embeds), `metadata` and `enabled`',
      },
      {
        path: '/api/knowledge-bases/:id/export',
        text:
          'the knowledge base as one JSON Lines file (`application/x-ndjson`): its settings, then each indexed ' +
          'document (metadata, on or off) and its chunks with their vectors',
      },
      {
        path: '/api/knowledge-bases/import',
        text:
          'a new knowledge base from an export: multipart `file` (and optional `name`, `credentialId`, ' +
          '`embeddingModel`) → 202 `{ knowledgeBase, documents, vectors: "kept" | "embedded" }` (vectors are kept ' +
          'when the model and dimension match, else the chunks are embedded again; never cut again); a wrong line ' +
          'is 400 `KNOWLEDGE_IMPORT_INVALID` with its path (`lines[n]…`) and nothing is made',
      },
      {
        path: '/api/knowledge-bases/:id/chunk-preview',
        text:
          'the chunks one file would make in this knowledge base, before it is uploaded (the body of a one-file ' +
          'upload) → `{ characters, pages, total, chunks }`: the first 100 chunks, each with its `context` ' +
          '(parent section or answer) where the chunking gives one; nothing is kept',
      },
      {
        path: '/api/knowledge-bases/:id/documents/:docId',
        text:
          'one document’s status; PATCH `{ metadata?, enabled? }` (metadata replaced whole; `enabled: false` ' +
          'keeps it but leaves it out of every search); delete (its chunks too; stops its indexing if it is running)',
      },
      {
        path: '/api/knowledge-bases/:id/search',
        text:
          '`{ query, topK?, threshold?, mode?, documentIds?, filter?, rerank? }` → `{ hits: [{ citation, documentId, ' +
          'title, chunkIndex, page, headingPath?, text, score, bm25, knn, rerank?, retrievalScore? }], notice?, ' +
          'reranked? }` ' +
          '(`headingPath`: a Markdown chunk’s headings; `knn: null`: no vector for that text, see ' +
          '[Embedder coverage](features.md#knowledge-bases); `rerank: { credentialId, model, topN? }`: reranked by ' +
          'that model through the credential; `filter`: documents whose metadata matches, see ' +
          '[How a search ranks](knowledge.md#how-a-search-ranks))',
      },
    ],
  },
  {
    title: 'Agents',
    routes: [
      {
        path: '/api/agent-tools',
        text: 'what an agent may select: `{ builtin: [{ name, description }], mcp: [{ server, tools, error? }] }`',
      },
      {
        path: '/api/skills',
        text:
          'the workspace’s agent skills; upload `{ files: { "SKILL.md": "…", "reference/x.md": "…" } }` → 201 (200 ' +
          'when replacing); 400 `SKILL_INVALID` with a path',
      },
      { path: '/api/skills/:name', text: 'read; delete (a `SKILLS_DIR` skill is read-only: 409)' },
    ],
  },
  {
    title: 'Evaluations',
    routes: [
      {
        path: '/api/datasets',
        text:
          'the workspace’s datasets, newest first, without rows; create `{ name, description?, rows: [{ inputs, ' +
          'expected?, tags? }] }` or multipart `file` (CSV: `expected` / `expected.<field>` / `tags` columns, the ' +
          'others inputs; JSONL: a row object per line) with `name?`, `description?` → 201 `{ id, rowCount, version, ' +
          '… }`; 400 `DATASET_FILE_UNREADABLE` with the line',
      },
      {
        path: '/api/datasets/:id',
        text:
          'the dataset with its rows (`?version=n`: that version’s); PATCH `{ name?, description?, rows? }` ' +
          '(new rows are the next version, earlier ones kept); DELETE → 204',
      },
      {
        path: '/api/datasets/:id/rows',
        text:
          'adds rows as the next version: `{ rows }`, or `{ runId, expectOutputs?, tags? }` (a past run’s ' +
          'inputs, its outputs as the expectation) → the summary',
      },
      {
        path: '/api/workflows/:id/evaluations',
        text:
          '`POST { datasetId, datasetVersion?, version?: n | "draft", scorers: [{ name, type, field?, … }], ' +
          'concurrency?: 1–16 }` → 202 `{ evaluationId }`: every row runs as a run of that version (trigger ' +
          '`evaluation`) and is scored by `exact`, `contains`, `regex`, `json_schema`, `numeric`, `similarity`, ' +
          '`llm_judge`, `retrieval`, `latency` or `cost` (see docs/evaluations.md); `GET` the workflow’s ' +
          'evaluations, newest first, with their summaries: `{ evaluations, nextCursor }`, `?limit=` 1–100 ' +
          '(default 50), `?cursor=` the `nextCursor` of the page before',
      },
      {
        path: '/api/evaluations/:id',
        text:
          '`{ status, workflowId, version, datasetId, datasetVersion, progress, summary: { <scorer>: { mean, ' +
          'passRate }, costUsd, p50Ms, p95Ms }, rows: [{ index, runId, status, inputs, outputs, expected, scores: ' +
          '{ <scorer>: { score, passed, reason? } } }] }`',
      },
      {
        path: '/api/evaluations/:id/cancel',
        text: '`POST` → 202: the runs of the rows in flight are cancelled and no further row starts',
      },
      {
        path: '/api/evaluations/compare',
        text:
          '`?a=<id>&b=<id>` → per scorer `{ a, b, diff }` (b − a), `counts`, and per row `change` (`worse`, ' +
          '`better`, `same`, `added`, `removed`), changed rows first, with both sides’ outputs and scores',
      },
    ],
  },
  {
    title: 'Server',
    routes: [
      {
        path: '/api/health',
        access: 'open (details only for a signed-in admin)',
        text:
          '`{ ok, db, bus, search, llm, workers, down }`: which implementation each part uses (no paths or hosts), ' +
          '503 with `down: { db?, bus? }` when a part does not work; a signed-in admin also gets `details` (data ' +
          'folder, hosts)',
      },
      {
        path: '/api/*',
        access: 'open',
        text: 'any `/api/` path no route serves: a JSON 404 `NOT_FOUND` (never the editor’s HTML page)',
      },
    ],
  },
];
