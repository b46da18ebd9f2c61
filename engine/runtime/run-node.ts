/**
 * runNode(): the one node runtime both engines call. Resolve config → execute with AbortSignal, timeout and the
 * node's retry policy → persist the snapshot (awaited) → emit events. It never throws for node failures (they
 * come back as an outcome); it throws StoreWriteError when the snapshot could not be persisted, because then no
 * successor may start.
 */
import { PaiError, toErrorJson, type ErrorJson } from '../errors';
import { retryPolicySchema, type GraphNode } from '../graph/schema';
import { leadsOnlyTo, type Topology } from '../graph/topology';
import type { AgentServices } from '../node-kit/agent-services';
import type { NodeArtifacts } from '../artifacts/types';
import type { CredentialResolver } from '../credentials/types';
import type { KnowledgeService } from '../knowledge/types';
import type { LlmResolver, Usage } from '../llm/types';
import type { LoopBody } from '../node-kit/loop-body';
import { NodePause, type NodeDefinition, type SecretsReader } from '../node-kit/define';
import { configWithoutPins } from '../graph/workflow-calls';
import type { NodeRegistry } from '../node-kit/registry';
import type { GuardedFetch } from '../net/ssrf-guard';
import type { NodeRunRecord } from '../store/types';
import { resolveDeep, type TemplateScope } from '../template/resolve';
import { breakpointGate } from './breakpoints';
import { DemoModelUse, withDemoMark } from './demo-model-use';
import { nodeCheckpoint } from './node-checkpoint';
import { redact } from './redact';
import type { InputRefResolver } from './input-refs';
import type { ConversationVariableStore } from './conversation-state';
import { storedForm } from './large-values';
import type { RunLimits } from './run-limits';
import { GivenSecrets, type NodeEmit } from './secret-echoes';
import { newSpanId, type RunJournal } from './run-journal';
import { zodProblems } from '../validation/zod-problems';

export interface NodeServices {
  llm: LlmResolver;
  fetch: GuardedFetch;
  secrets: SecretsReader;
  agent?: AgentServices;
  knowledge?: KnowledgeService;
  credentials?: CredentialResolver;
  artifacts?: NodeArtifacts;
  /** Secret values a node may use without being handed them (the process's own provider keys): never shown. */
  knownSecrets?: string[];
  /** Resolves run inputs kept by reference (input-refs.ts), e.g. a chat conversation's history. */
  inputRefs?: InputRefResolver;
  /** Where chat conversations keep their variables (conversation-state.ts); absent: runs use the defaults. */
  conversations?: ConversationVariableStore;
}

export interface NodeOutcome {
  /** `waiting`: the node paused for a person (NodePause); the run waits, and the node runs again once answered. */
  status: 'succeeded' | 'failed' | 'cancelled' | 'waiting';
  /** With `waiting`: what the person is asked. */
  pause?: NodePause['prompt'];
  /** With `waiting`: the node's operation key (its checkpoint's), where the answer is stored. */
  nodeKey?: string;
  /** With `waiting`, on a cycle: the pass the node paused in (it runs again in that pass once answered). */
  pass?: number;
  output?: unknown;
  branch?: string | string[];
  error?: ErrorJson;
  attempt: number;
  usage?: Usage;
  /** With `deferDurable`: settles once the snapshot is stored (rejects with StoreWriteError). */
  durable?: Promise<void>;
}

export interface RunNodeArgs {
  runId: string;
  node: GraphNode;
  def: NodeDefinition;
  scope: TemplateScope;
  /** Attempts made before this call (from the stored snapshot); this execution is `previousAttempts + 1`. */
  previousAttempts: number;
  signal: AbortSignal;
  journal: RunJournal;
  services: NodeServices;
  /** The run's limits: the node's default timeout and what its record keeps (the RunManager's). */
  limits: RunLimits;
  /** Loop iteration (state-graph engine); 0 on the DAG engine. */
  iteration?: number;
  /**
   * Return before the snapshot is stored, with `outcome.durable` to await. The caller must await it before any
   * successor starts; the state-graph engine uses this to overlap the store round trip with LangGraph's own step.
   */
  deferDurable?: boolean;
  /** A breakpoint (or step mode) is set on this node: pause before it executes (breakpoints.ts). */
  pauseBefore?: boolean;
  /** This node's breakpoint was just answered (it may not pause again: step mode ended): apply the answer. */
  breakpointAnswered?: boolean;
  /**
   * Leave the snapshot staged for the run's next commit instead of committing it now (persistWithNextIn decides).
   */
  persistWithNext?: boolean;
  /**
   * The config to run with instead of the node's own with its templates resolved: a single-node run's input as the
   * person edited it (single-node-run.ts). Parsed with the node's configSchema; no template is resolved in it.
   */
  configOverride?: unknown;
  /** A loop node that runs its items in parallel: its body, for NodeContext.loopBody (runtime/loop-body-runner.ts). */
  loopBody?: LoopBody;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One attempt's signal: aborted by the run's signal or after `ms`; dispose() when the attempt is over. */
function attemptAbort(run: AbortSignal, ms: number) {
  const ctl = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    ctl.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
  }, ms);
  timer.unref?.();
  const onAbort = () => ctl.abort(run.reason);
  if (run.aborted) onAbort();
  else run.addEventListener('abort', onAbort, { once: true });
  return {
    signal: ctl.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      run.removeEventListener('abort', onAbort);
    },
  };
}

function isRetryable(err: unknown): boolean {
  if (err instanceof PaiError) return err.retryable || err.code === 'NODE_TIMEOUT';
  return !(err instanceof Error && err.name === 'AbortError');
}

/**
 * The nodes whose snapshot need not be committed on its own, before their successors run: pure nodes (running one
 * again after a crash changes nothing), and nodes from which only pure nodes can be reached (no successor has
 * effects that must wait for it). Their snapshots ride with the run's next commit: another node's, or its final one.
 */
export function persistWithNextIn(t: Topology, nodes: Map<string, GraphNode>, registry: NodeRegistry): Set<string> {
  const pure = (id: string) => {
    const n = nodes.get(id)!;
    return registry.has(n.type) && !!registry.get(n.type, n.data.version).pure;
  };
  const out = leadsOnlyTo(t, pure);
  for (const id of t.ids) if (pure(id)) out.add(id);
  return out;
}

/** The text a cancelled node keeps of what it streamed (characters). */
const MAX_KEPT_STREAM = 100_000;

export async function runNode(a: RunNodeArgs): Promise<NodeOutcome> {
  const { node, def, journal, runId } = a;
  if (!def.pure && journal.runStored) await journal.runStored; // a node with effects runs only for a stored run
  const policy = retryPolicySchema.parse(node.data.retry ?? {});
  const timeoutMs = node.data.timeoutMs ?? a.limits.nodeTimeoutMs;
  const spanId = newSpanId();
  const startedAt = new Date();
  let attempt = a.previousAttempts;
  const record = (patch: Partial<NodeRunRecord>): NodeRunRecord => ({
    runId,
    nodeId: node.id,
    type: node.type,
    status: 'running',
    attempt,
    input: null,
    output: null,
    error: null,
    usage: null,
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    durationMs: null,
    ...patch,
  });

  const override = a.configOverride !== undefined;
  const given = (override ? a.configOverride : configWithoutPins(node)) ?? {};
  const parsed = def.configSchema.safeParse(given);
  let config: unknown;
  let rawConfig: unknown;
  let setupError: ErrorJson | undefined;
  if (!parsed.success) {
    const [first] = zodProblems(def.configSchema, given, parsed.error.issues, {
      code: 'INVALID_CONFIG',
      base: 'config',
    });
    setupError = first;
  } else if (override) {
    config = rawConfig = parsed.data;
  } else {
    rawConfig = parsed.data;
    const raw = parsed.data as Record<string, unknown>;
    const toResolve = { ...raw };
    for (const k of def.rawKeys ?? []) delete toResolve[k];
    try {
      config = { ...raw, ...resolveDeep(toResolve, a.scope) };
    } catch (e) {
      // E.g. TEMPLATE_OUTPUT_TOO_LARGE: the node fails with its own snapshot, like a config that does not parse.
      setupError = toErrorJson(e);
    }
  }
  // Stored as the record keeps it: an input the run has by reference (input-refs.ts) stays a reference.
  let input = redact(journal.inputRefs.byReference(config ?? node.data.config ?? {}));

  // The operation, not the attempt: the same on every retry, resume and restart (plus the loop pass).
  const operation = a.iteration ? `${node.id}:${a.iteration}` : node.id;
  if ((a.pauseBefore || a.breakpointAnswered) && !setupError) {
    const gate = await breakpointGate(journal, operation, node.id, config, input);
    if ('pause' in gate && a.pauseBefore) {
      journal.stageNode(record({ status: 'waiting', attempt, input }));
      journal.emit('node.progress', { waiting: gate.pause }, { nodeId: node.id, spanId });
      await journal.flush();
      return { status: 'waiting', attempt, pause: gate.pause, nodeKey: operation, ...passOf(a) };
    }
    if ('config' in gate && gate.answer?.input) {
      // The person's edited input replaces the resolved config, and the stored one for nodes that render their own.
      config = rawConfig = gate.config;
      input = redact(journal.inputRefs.byReference(config ?? {}));
    }
    if ('config' in gate && gate.answer) {
      const { action, by, at } = gate.answer;
      journal.emit(
        'node.progress',
        { breakpoint: { action, edited: !!gate.answer.input, by: by ?? null, at: at ?? null } },
        { nodeId: node.id, spanId },
      );
    }
  }
  const checkpoint = nodeCheckpoint(journal, operation, config);
  // What the record keeps: a value over NODE_OUTPUT_MAX_BYTES keeps its large parts in artifacts (large-values.ts).
  const storage = {
    runId,
    nodeId: node.id,
    artifacts: a.services.artifacts,
    memo: journal.offloaded,
    maxBytes: a.limits.nodeOutputMaxBytes,
  };
  input = (await storedForm(input, `${operation}.input`, storage)) as typeof input;

  attempt += 1;
  journal.stageNode(record({ input }));
  // `iteration`: the pass of a node on a cycle (0 = the first; omitted then), so a loop's passes read as passes and
  // not as retries.
  journal.emit(
    'node.started',
    { type: node.type, attempt, input, ...(a.iteration ? { iteration: a.iteration } : {}) },
    { nodeId: node.id, spanId },
  );

  let outcome: NodeOutcome;
  // Did the offline demo model answer any of this node's calls (any attempt)? Its record says so.
  const demo = new DemoModelUse();
  if (setupError) {
    outcome = { status: 'failed', error: setupError, attempt };
  } else {
    outcome = { status: 'failed', attempt, error: { code: 'NODE_ERROR', message: 'not executed' } };
    // What this attempt streamed (node.token): a cancelled node keeps it in its error's details.
    let streamed = '';
    const cancelled = (): NodeOutcome => ({
      status: 'cancelled',
      attempt,
      error: {
        code: 'CANCELLED',
        message: 'the run was cancelled',
        ...(streamed ? { details: { streamedText: streamed.slice(0, MAX_KEPT_STREAM) } } : {}),
      },
    });
    // Every secret handed to the node is noted; its echoes are removed from all the node produces (see secret-echoes).
    const given = new GivenSecrets(a.services.knownSecrets);
    const services = given.wrap(a.services);
    const emitToJournal: NodeEmit = (type, data, opts) =>
      journal.emit(type, data, {
        nodeId: node.id,
        spanId: opts?.spanId ?? spanId,
        parentSpanId: opts?.spanId ? (opts.parentSpanId ?? spanId) : undefined,
      });
    for (let i = 1; ; i++) {
      streamed = '';
      const events = given.redactedEmit(emitToJournal, (delta) => {
        if (streamed.length < MAX_KEPT_STREAM) streamed += delta;
      });
      const attemptSignal = attemptAbort(a.signal, timeoutMs);
      const { signal, timedOut } = attemptSignal;
      try {
        const res = await def.execute({
          runId,
          nodeId: node.id,
          nodeType: node.type,
          attempt,
          idempotencyKey: `${runId}:${operation}`,
          config,
          rawConfig,
          scope: a.scope,
          signal,
          spanId,
          emit: events.emit,
          fetch: a.services.fetch,
          secrets: services.secrets,
          llm: demo.watch(services.llm),
          iteration: a.iteration ?? 0,
          agent: a.services.agent,
          knowledge: a.services.knowledge,
          credentials: services.credentials,
          artifacts: a.services.artifacts,
          checkpoint: checkpoint.handle && given.checkpoint(checkpoint.handle),
          loopBody: a.loopBody,
        });
        events.flush();
        outcome = {
          status: 'succeeded',
          output: given.scrub(res.output ?? null),
          branch: res.branch,
          usage: res.usage,
          attempt,
        };
        break;
      } catch (err) {
        events.flush();
        if (err instanceof NodePause && !a.signal.aborted) {
          outcome = { status: 'waiting', attempt, pause: err.prompt, nodeKey: operation, ...passOf(a) };
          journal.emit('node.progress', { waiting: err.prompt }, { nodeId: node.id, spanId });
          break;
        }
        if (a.signal.aborted) {
          outcome = cancelled();
          break;
        }
        const error = timedOut()
          ? { code: 'NODE_TIMEOUT', message: `node "${node.id}" timed out after ${timeoutMs} ms` }
          : given.scrub(toErrorJson(err));
        outcome = { status: 'failed', error, attempt };
        const retryable = timedOut() || isRetryable(err);
        if (i >= policy.maxAttempts || !retryable) break;
        const delay = Math.round(policy.backoffMs * policy.backoffMultiplier ** (i - 1));
        journal.emit('node.progress', { retry: { attempt, nextInMs: delay, error } }, { nodeId: node.id, spanId });
        await abortableSleep(delay, a.signal);
        if (a.signal.aborted) {
          outcome = cancelled();
          break;
        }
        attempt += 1;
        outcome.attempt = attempt;
      } finally {
        attemptSignal.dispose();
      }
    }
  }

  if (outcome.status === 'waiting') {
    // Paused: the snapshot says so (not finished), and it is durable before the run reports that it waits.
    journal.stageNode(record({ status: 'waiting', attempt: outcome.attempt, input }));
    await journal.flush();
    return outcome;
  }
  let output = outcome.status === 'succeeded' ? outcome.output : null;
  // Successors get the full output (outcome.output); the record and the event, what storage keeps.
  if (output !== null)
    output = await storedForm(journal.inputRefs.byReference(output), `${operation}.output`, storage).catch((e) => {
      outcome = { status: 'failed', attempt: outcome.attempt, error: toErrorJson(e) };
      return null;
    });
  const finishedAt = new Date();
  const durationMs = finishedAt.getTime() - startedAt.getTime();
  const usage = withDemoMark(outcome.usage, demo.used);
  if (usage) outcome.usage = usage;
  if (outcome.status === 'succeeded') checkpoint.dropIfUsed(); // in the same commit as the snapshot
  journal.stageNode(
    record({
      status: outcome.status,
      attempt: outcome.attempt,
      input,
      output,
      error: outcome.error ?? null,
      usage,
      finishedAt: finishedAt.toISOString(),
      durationMs,
    }),
  );
  const type = outcome.status === 'succeeded' ? 'node.succeeded' : 'node.failed';
  journal.emit(
    type,
    {
      type: node.type,
      attempt: outcome.attempt,
      durationMs,
      ...(outcome.status === 'succeeded'
        ? { output, usage }
        : { error: outcome.error, cancelled: outcome.status === 'cancelled' }),
    },
    { nodeId: node.id, spanId },
  );
  if (a.persistWithNext) return outcome;
  const durable = journal.flush(); // durable before any successor starts (rejects with StoreWriteError)
  if (a.deferDurable) {
    durable.catch(() => {}); // the caller awaits it; never an unhandled rejection meanwhile
    return { ...outcome, durable };
  }
  await durable;
  return outcome;
}

/** The loop pass a node runs in, when it runs on a cycle: kept with a pause so the answer continues that pass. */
function passOf(a: { iteration?: number }): { pass?: number } {
  return a.iteration ? { pass: a.iteration } : {};
}
